# expected-no-diagnostics
from .model import Net
