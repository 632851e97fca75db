# operation_tables_ok.py's table, where the captured step runs the
# operation that syncs: reported through the table.
import functools
from types import SimpleNamespace

import torch


def checked_dequantize(x):
    host = x.cpu()  # expected-error {{sync-device-to-host-copy}}
    return host.float()


def scale(x):
    return x * 2


@functools.cache
def get_module():
    return SimpleNamespace(dequantize=checked_dequantize, scale=scale)


def run(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = get_module().dequantize(x)
    return g, y
