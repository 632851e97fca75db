"""Builds graphsafe's binaries with CMake for `pip install .`.

Everything comes from the environment pip runs in: torch (the allocator
tracker is built against its libc10_cuda), CUPTI and the CUDA headers (the
environment's NVIDIA wheels, which every PyTorch CUDA wheel brings, else
CUDA_HOME or /usr/local/cuda), cmake and a C++17 compiler. fmt, nlohmann-json,
CLI11 and yaml-cpp come from the system or, where there are no such packages,
from a folder made by scripts/device-deps.sh named by GRAPHSAFE_DEPS_DIR.
graphlint is built too where LLVM/Clang 19 is installed. No root is needed:
the whole prefix lives inside the package (graphsafe/_root).
"""
import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

SOURCE = Path(__file__).resolve().parent


def fail(message):
    sys.stderr.write(f"graphsafe build: {message}\n")
    sys.exit(1)


def torch_dir():
    try:
        import torch
    except ImportError:
        fail("torch is not importable here: install graphsafe into the environment that runs "
             "your training code (python -m venv --system-site-packages, or pip install torch first)")
    if not torch.version.cuda:
        fail(f"torch {torch.__version__} has no CUDA; graphcheck needs a CUDA build of PyTorch")
    return Path(torch.__file__).resolve().parent, int(torch._C._GLIBCXX_USE_CXX11_ABI)


def first(patterns):
    for pattern in patterns:
        hits = sorted(glob.glob(pattern, recursive=True))
        if hits:
            return hits[-1]
    return None


def cuda_locations(site_dir):
    """CUPTI and cuda.h: the environment's NVIDIA wheels, then a CUDA Toolkit."""
    roots = [str(site_dir / "nvidia")]
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            roots.append(os.environ[var])
    roots.append("/usr/local/cuda")
    found = {}
    for root in roots:
        cupti_h = first([f"{root}/**/include/cupti.h"])
        cupti_lib = first([f"{root}/**/libcupti.so", f"{root}/**/libcupti.so.*"])
        cuda_h = first([f"{root}/**/include/cuda.h"])
        # The runtime headers CUPTI includes need nvcc's crt/ headers, which
        # PyTorch's CUDA 13 wheels leave out (nvidia-cuda-nvcc has them).
        crt = first([f"{root}/**/include/crt/host_defines.h"])
        for key, value in (("cupti_include", cupti_h and str(Path(cupti_h).parent)),
                           ("cupti_lib", cupti_lib),
                           ("cuda_include", cuda_h and str(Path(cuda_h).parent)),
                           ("crt_include", crt and str(Path(crt).parent.parent))):
            if value and key not in found:
                found[key] = value
    missing = [k for k in ("cupti_include", "cupti_lib", "cuda_include", "crt_include")
               if k not in found]
    if missing:
        names = {"cupti_include": "cupti.h", "cupti_lib": "libcupti.so", "cuda_include": "cuda.h",
                 "crt_include": "crt/host_defines.h"}
        fail(f"could not find {', '.join(names[k] for k in missing)} under {', '.join(roots)}: "
             "install the NVIDIA wheels of your torch's CUDA version (CUPTI, the runtime headers "
             "and nvcc's headers: pip install nvidia-cuda-cupti nvidia-cuda-runtime "
             "nvidia-cuda-nvcc, with the -cu12 suffix for CUDA 12) or set CUDA_HOME to a CUDA "
             "Toolkit")
    return found


class BuildWithCMake(build_py):
    def run(self):
        super().run()
        torch_path, abi = torch_dir()
        cuda = cuda_locations(torch_path.parent)
        build = Path(self.build_lib).resolve().parent / "cmake-build"
        prefix = Path(self.build_lib).resolve() / "graphsafe" / "_root"
        args = ["cmake", "-S", str(SOURCE), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                "-DGRAPHSAFE_BUILD_TESTS=OFF", f"-DCMAKE_INSTALL_PREFIX={prefix}",
                # Torch's own CMake files want a CUDA Toolkit; the tracker needs only the wheel.
                "-DCMAKE_DISABLE_FIND_PACKAGE_Torch=ON",
                f"-DGRAPHSAFE_TORCH_DIR={torch_path}", f"-DGRAPHSAFE_TORCH_CXX11_ABI={abi}",
                f"-DGRAPHSAFE_CUPTI_INCLUDE={cuda['cupti_include']}",
                f"-DGRAPHSAFE_CUPTI_LIB={cuda['cupti_lib']}",
                f"-DGRAPHSAFE_CUDA_INCLUDE={cuda['cuda_include']};{cuda['crt_include']}"]
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        if os.environ.get("GRAPHSAFE_DEPS_DIR"):
            args.append(f"-DGRAPHSAFE_DEPS_DIR={Path(os.environ['GRAPHSAFE_DEPS_DIR']).resolve()}")
        if not Path("/usr/lib/llvm-19/lib/cmake/clang").exists():
            args.append("-DGRAPHSAFE_BUILD_ANALYZER=OFF")
        subprocess.check_call(args)
        subprocess.check_call(["cmake", "--build", str(build), "--parallel",
                               str(os.cpu_count() or 2)])
        subprocess.check_call(["cmake", "--install", str(build)])
        lib = prefix / "lib"
        for needed in ("libgraphcheck_inject.so", "libgraphcheck_alloc.so"):
            if not (lib / needed).exists():
                fail(f"{needed} was not built; the CMake output above says why")


class BinaryDistribution(Distribution):
    """The wheel holds native binaries: tag it for this platform, not as pure Python."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithCMake}, distclass=BinaryDistribution)
