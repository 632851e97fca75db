# Decorators that look like caches but call the wrapped body every time: its
# host I/O runs at capture only.
import logging

import torch

logger = logging.getLogger(__name__)


def counted(func):
    calls = None

    def wrapper(x):
        nonlocal calls
        if calls is None:
            calls = 0
        calls += 1  # expected-warning {{host-state-mutation}}
        return func(x)

    return wrapper


@counted
def scaled(x):
    logger.info("scaling")  # expected-warning {{host-io-in-capture}}
    return x * 2


_SEEN = None


def remember(x):
    global _SEEN
    if _SEEN is None:
        _SEEN = 1
    print("called")  # expected-warning {{host-io-in-capture}}
    return x


static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = remember(scaled(static_x))
