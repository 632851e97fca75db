# expected-no-diagnostics
# Decorators written by hand that memoize: the wrapped body runs on the first
# call only (a warm-up before the capture takes it), its result kept in a
# `nonlocal` or a `global` name, as functools.cache keeps it.
import logging

import torch

logger = logging.getLogger(__name__)


def compute_once(func):
    value = None

    def func_wrapper():
        nonlocal value
        if value is None:
            value = func()
        return value

    return func_wrapper


@compute_once
def fast_path_available():
    try:
        import triton  # noqa: F401

        return True
    except ImportError:
        logger.warning("Triton is missing: the slow path runs")
        return False


_SCALE = None


def scale():
    global _SCALE
    if _SCALE is None:
        print("computing the scale once")
        _SCALE = 0.5
    return _SCALE


def step(x):
    if fast_path_available():
        return x * scale()
    return x


static_x = torch.randn(4, device="cuda")
step(static_x)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = step(static_x)
