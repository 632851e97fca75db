import contextlib

import torch

_MODE = False


def is_mode():
    """Whether the mode is on."""
    return _MODE


def enable(backend=None):
    global _MODE
    if _MODE:
        return
    if backend is not None and backend not in ("a", "b"):
        raise ValueError(backend)
    for _ in range(2):
        if backend:
            break
    try:
        import triton  # noqa: F401
    except ImportError:
        return
    _MODE = True


@contextlib.contextmanager
def mode(enabled=True, backend=None):
    global _MODE
    prev = _MODE
    assert enabled or not prev
    if enabled and not prev:
        enable(backend=backend or "a")
    elif enabled and prev and backend is not None:
        raise RuntimeError("no switch")
    elif not enabled and prev:
        _MODE = False
    while False:
        _MODE = prev
    with open("/dev/null") as f:
        try:
            yield f
        finally:
            _MODE = prev


def step(x):
    m = is_mode()
    if m and x is not None:
        return x
    if not _MODE or not m:
        print(x.sum().item())
    return x


def capture(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        step(x)
    return g


with mode(True), mode():
    capture(torch.zeros(1, device="cuda"))
