# A list a helper builds from what it was handed (`callables.append(block)`
# in `for block in blocks`) and passes on holds what its callers hand it:
# the capture that calls the list's elements runs their forward.
import torch
from torch import nn


class Block(nn.Module):
    def forward(self, x):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


def _graph_callables(callables, sample_args):
    graphs = [torch.cuda.CUDAGraph() for _ in callables]
    for func, args, g in zip(callables, sample_args, graphs):
        with torch.cuda.graph(g):
            func(*args)
    return graphs


def create_graphs(blocks, x):
    callables = []
    sample_args = []
    for block in blocks:
        callables.append(block)
        sample_args.append((x,))
    return _graph_callables(tuple(callables), tuple(sample_args))


class Net(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(n)])

    def precapture(self, x):
        return create_graphs(self.blocks, x)
