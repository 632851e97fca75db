# expected-no-diagnostics
# A global mode the way libraries keep one: a flag, a getter, an enable that
# returns early when already on, a disable, and a re-entrant context manager
# that changes the flag only when it differs.
import contextlib

_FAST_MODE = False
_FAST_LIB = None


def is_fast_mode_enabled():
    """Whether the fast kernels are on."""
    return _FAST_MODE


def enable_fast_mode(backend="triton"):
    global _FAST_MODE, _FAST_LIB
    if _FAST_MODE:
        return
    if backend not in ("triton", "cuda"):
        raise ValueError(f"unknown backend {backend!r}")
    _FAST_MODE = True
    _FAST_LIB = backend


def disable_fast_mode():
    global _FAST_MODE, _FAST_LIB
    _FAST_MODE = False
    _FAST_LIB = None


@contextlib.contextmanager
def set_fast_mode(enabled=True, backend=None):
    global _FAST_MODE
    prev_enabled = _FAST_MODE
    if enabled and not prev_enabled:
        enable_fast_mode(backend=backend or "triton")
    elif enabled and prev_enabled and backend is not None:
        raise RuntimeError("cannot switch backends inside an active context")
    elif not enabled and prev_enabled:
        disable_fast_mode()
    try:
        yield
    finally:
        if prev_enabled and not enabled:
            enable_fast_mode()
        elif not prev_enabled and enabled:
            disable_fast_mode()


@contextlib.contextmanager
def maybe_fast(flag):
    # The mode follows a value the caller computes: nothing is known.
    global _FAST_MODE
    old = _FAST_MODE
    _FAST_MODE = flag
    try:
        yield
    finally:
        _FAST_MODE = old
