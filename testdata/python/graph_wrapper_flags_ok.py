# expected-no-diagnostics
# The same wrapper: code the flag it sets around its capture rules out does
# not run there, and what runs before the capture or after the early return
# of a nested call is not captured by this wrapper.
from contextlib import contextmanager

import torch
from torch import cuda

_in_graph = False


def in_graph() -> bool:
    return _in_graph


@contextmanager
def _graphing():
    global _in_graph
    _in_graph = True
    try:
        yield
    finally:
        _in_graph = False


def check_finite(x):
    if not in_graph():
        assert torch.isfinite(x).all().item()
    return x


class Graphed:
    def __init__(self, func):
        self.func = func
        self._graph = None

    def __call__(self, *args):
        if in_graph():
            return self.func(*args)
        print("graphing", args[0].sum().item())
        with _graphing():
            self._graph = cuda.CUDAGraph()
            with cuda.graph(self._graph):
                out = self.func(*args)
        return out


def decode(x):
    return check_finite(x) * 2


def main():
    step = Graphed(decode)
    step(torch.ones(4, device="cuda"))
