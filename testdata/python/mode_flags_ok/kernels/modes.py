# expected-no-diagnostics
# Two ways of keeping a global mode: a re-entrant context manager that calls
# an enable returning early when the mode is already on, and one that sets
# the flag itself and restores it after.
from contextlib import contextmanager

_FAST_MODE = False
_DETERMINISTIC = False


def is_fast_mode_enabled():
    return _FAST_MODE


def enable_fast_mode():
    global _FAST_MODE
    if _FAST_MODE:
        return
    _FAST_MODE = True


def disable_fast_mode():
    global _FAST_MODE
    _FAST_MODE = False


@contextmanager
def set_fast_mode(enabled=True, backend=None):
    global _FAST_MODE
    prev = _FAST_MODE
    if enabled and not prev:
        enable_fast_mode()
    elif enabled and prev and backend is not None:
        raise RuntimeError("the backend cannot change inside an active context")
    elif not enabled and prev:
        disable_fast_mode()
    try:
        yield
    finally:
        if prev != enabled:
            (enable_fast_mode if prev else disable_fast_mode)()


@contextmanager
def deterministic():
    global _DETERMINISTIC
    old = _DETERMINISTIC
    _DETERMINISTIC = True
    try:
        yield
    finally:
        _DETERMINISTIC = old


def checked_sum(x):
    if not _DETERMINISTIC:
        return x.sum().item()
    return x.sum()
