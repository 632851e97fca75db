#include "CompilerSetup.h"

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace graphsafe::lint {

using clang::tooling::CommandLineArguments;

bool isCudaSource(const std::string &File) {
  auto Ext = fs::path(File).extension().string();
  return Ext == ".cu" || Ext == ".cuh";
}

Toolchain detectToolchain(const std::string &Argv0, const std::string &CudaPathOption) {
  Toolchain TC;
  TC.ResourceDir = GRAPHSAFE_CLANG_RESOURCE_DIR;
  std::error_code EC;
  fs::path Exe = fs::canonical("/proc/self/exe", EC);
  if (EC)
    Exe = fs::absolute(Argv0, EC);
  fs::path Installed = Exe.parent_path().parent_path() / "share" / "graphsafe" / "compat";
  TC.CompatDir = fs::is_directory(Installed, EC) ? Installed.string() : GRAPHSAFE_COMPAT_DIR;
  if (!CudaPathOption.empty()) {
    TC.CudaPath = CudaPathOption;
    return TC;
  }
  for (const char *Var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *V = std::getenv(Var); V && fs::exists(fs::path(V) / "include" / "cuda.h", EC)) {
      TC.CudaPath = V;
      return TC;
    }
  if (fs::exists("/usr/local/cuda/include/cuda.h", EC))
    TC.CudaPath = "/usr/local/cuda";
  return TC;
}

namespace {

// nvcc command lines in compile databases carry flags clang rejects; keep
// only what shapes the parse.
CommandLineArguments keepPortableFlags(const CommandLineArguments &Args, const std::string &File) {
  CommandLineArguments Out = {"clang++"};
  for (size_t I = 1; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    auto withValue = [&](const char *Flag) {
      if (A == Flag && I + 1 < Args.size()) {
        Out.push_back(A);
        Out.push_back(Args[++I]);
        return true;
      }
      return false;
    };
    if (withValue("-I") || withValue("-isystem") || withValue("-D") || withValue("-include"))
      continue;
    if (A.rfind("-I", 0) == 0 || A.rfind("-D", 0) == 0 || A.rfind("-U", 0) == 0 ||
        A.rfind("-isystem", 0) == 0 || A.rfind("-std=", 0) == 0)
      Out.push_back(A);
  }
  Out.push_back(File);
  return Out;
}

} // namespace

clang::tooling::ArgumentsAdjuster makeArgumentsAdjuster(const Toolchain &TC) {
  return [TC](const CommandLineArguments &In, llvm::StringRef Filename) {
    CommandLineArguments Args = In;
    bool Cuda = isCudaSource(Filename.str());
    bool Nvcc =
        !Args.empty() && fs::path(Args[0]).filename().string().find("nvcc") != std::string::npos;
    if (Nvcc)
      Args = keepPortableFlags(Args, Filename.str());
    if (Cuda) {
      // Build systems that compile .cu files as C++ say `-x c++`; analysis
      // needs the CUDA language to see launches and __global__ functions.
      CommandLineArguments Kept;
      for (size_t I = 0; I < Args.size(); ++I) {
        if (Args[I] == "-x" && I + 1 < Args.size()) {
          ++I;
          continue;
        }
        if (Args[I].rfind("-x", 0) == 0 && Args[I].size() > 2 && Args[I] != "-xcuda")
          continue;
        Kept.push_back(Args[I]);
      }
      Args = Kept;
    }
    Args = clang::tooling::getClangStripOutputAdjuster()(Args, Filename);
    Args = clang::tooling::getClangStripDependencyFileAdjuster()(Args, Filename);
    Args = clang::tooling::getClangSyntaxOnlyAdjuster()(Args, Filename);
    CommandLineArguments Extra = {"-resource-dir=" + TC.ResourceDir,
                                  "-idirafter",
                                  TC.CompatDir,
                                  "-Wno-everything",
                                  "-ferror-limit=20",
                                  "-fno-caret-diagnostics"};
    // Host code that includes cuda_runtime.h parses without the project's own
    // -I for CUDA; the project's flags still win because this comes last.
    if (!TC.CudaPath.empty() && !Cuda) {
      Extra.push_back("-idirafter");
      Extra.push_back(TC.CudaPath + "/include");
    }
    if (Cuda) {
      Extra.push_back("--cuda-host-only");
      Extra.push_back("-Wno-unknown-cuda-version");
      bool HasPath = false;
      for (const auto &A : Args)
        HasPath |= A.rfind("--cuda-path", 0) == 0;
      if (!HasPath && !TC.CudaPath.empty())
        Extra.push_back("--cuda-path=" + TC.CudaPath);
      // CUDA 13 moved Thrust/CUB/libcu++ under include/cccl; nvcc adds it
      // implicitly, clang does not.
      if (!TC.CudaPath.empty() && fs::is_directory(TC.CudaPath + "/include/cccl")) {
        Extra.push_back("-idirafter");
        Extra.push_back(TC.CudaPath + "/include/cccl");
      }
      if (Filename.ends_with(".cuh"))
        Extra.insert(Extra.end(), {"-x", "cuda"});
      Extra.insert(Extra.end(), {"-include", TC.CompatDir + "/graphsafe_nvcc_macros.h"});
    }
    // Insert after argv[0] so the flags apply to the file that follows.
    Args.insert(Args.begin() + (Args.empty() ? 0 : 1), Extra.begin(), Extra.end());
    return Args;
  };
}

} // namespace graphsafe::lint
