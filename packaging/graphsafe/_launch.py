"""Console scripts: run the binary of the installed prefix with the same arguments."""
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent / "_root"


def _run(tool):
    binary = ROOT / "bin" / tool
    if not binary.exists():
        sys.stderr.write(
            f"{tool}: not part of this installation ({binary} is missing). "
            + ("graphlint builds only where LLVM/Clang 19 is installed (libclang-19-dev "
               "llvm-19-dev); reinstall with it present."
               if tool == "graphlint" else
               "Reinstall graphsafe (pip install .) in an environment with torch and CUPTI.")
            + "\n")
        return 2
    # exec keeps the process: signals, exit code and stdio are the tool's own.
    os.execv(str(binary), [tool] + sys.argv[1:])


def graphcheck():
    return _run("graphcheck")


def graphlint():
    return _run("graphlint")
