# expected-no-diagnostics
import os

DEBUG: int = int(os.environ.get("MYPROJ_KERNEL_DEBUG", "0"))
TRACE = os.environ.get("MYPROJ_TRACE", "1") == "1"
