# expected-no-diagnostics
# The mode is held in a ContextVar (as in contextvar_modes_ok/): the setter
# replaces its value with `.set(...)`, the getter reads it with `.get()` and
# makes a default object when nothing was set.
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class Context:
    is_prefill: bool = False


_CONTEXT_VAR: ContextVar = ContextVar("inference_context", default=None)


def get_context() -> Context:
    ctx = _CONTEXT_VAR.get()
    if ctx is None:
        ctx = Context()
    return ctx


def set_context(is_prefill: bool, max_len: int = 0) -> None:
    ctx = Context(is_prefill=is_prefill)
    _CONTEXT_VAR.set(ctx)
