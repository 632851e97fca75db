# expected-no-diagnostics
from .base import BaseModel
from .registry import create_model
