# expected-no-diagnostics
from .real_accelerator import get_accelerator, set_accelerator
