# expected-no-diagnostics
# A JIT-built module's operations kept in a SimpleNamespace (or a dict)
# that a cached getter returns: building the table calls none of them, and
# `get_module().scale(x)` runs the one it names.
import functools
from types import SimpleNamespace

import torch


def checked_dequantize(x):
    host = x.cpu()
    return host.float()


def scale(x):
    return x * 2


@functools.cache
def get_module():
    return SimpleNamespace(dequantize=checked_dequantize, scale=scale)


def get_table():
    table = SimpleNamespace(dequantize=checked_dequantize, scale=scale)
    return table


HANDLERS = dict(dequantize=checked_dequantize, scale=scale)


def step(x):
    y = get_module().scale(x)
    table = get_table()
    return table.scale(y)


def run(x):
    step(x)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = step(x)
    return g, y
