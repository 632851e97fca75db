# expected-no-diagnostics
# Which backend this process runs on, picked once at import, the way serving
# stacks do: a ROCm build first, then a CUDA one, then the others.
import importlib.util

import torch

SYSTEM = None
if torch.version.hip is not None:
    SYSTEM = "rocm"
elif torch.version.cuda is not None and torch.cuda.is_available():
    SYSTEM = "cuda"
elif importlib.util.find_spec("intel_extension_for_pytorch") is not None:
    SYSTEM = "ipex"
else:
    SYSTEM = "cpu"

if torch.version.hip:
    ON_ROCM = True
else:
    ON_ROCM = False

# Set on the paths of a try: either value may reach the code that reads it.
try:
    import fast_kernels  # noqa: F401

    HAS_FAST_KERNELS = True
except ImportError:
    HAS_FAST_KERNELS = False
