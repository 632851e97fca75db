# expected-no-diagnostics
# Layers built by factories, as model code writes them: a factory returning
# a local it built, a mixer class picked from a table and bound with
# functools.partial, a model holding them in an nn.ModuleList built by a
# comprehension. The decode capture runs the step path: the inference
# state it sets up before capturing is no None, so the prefill branch
# (`if params is None:`) does not run under it.
from functools import partial

import torch
from torch import nn


class FastMixer(nn.Module):
    def __init__(self, dim, layer_idx=None):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, params=None):
        if params is None:
            counts = x.sum(-1).long()
            return torch.repeat_interleave(x, counts, dim=0)
        return self.proj(x)


class Block(nn.Module):
    def __init__(self, dim, mixer_cls):
        super().__init__()
        self.mixer = mixer_cls(dim)

    def forward(self, x, params=None):
        return self.mixer(x, params=params)


def create_block(dim, kind="fast", layer_idx=None):
    table = {"fast": FastMixer}
    mixer_cls = partial(table[kind], layer_idx=layer_idx)
    block = Block(dim, mixer_cls)
    block.layer_idx = layer_idx
    return block


class Model(nn.Module):
    def __init__(self, dim, n):
        super().__init__()
        self.layers = nn.ModuleList([create_block(dim, layer_idx=i) for i in range(n)])

    def forward(self, x, params=None):
        for layer in self.layers:
            x = layer(x, params=params)
        return x


def capture_decode(model, x, params):
    params.seqlen_offset = 1
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model.forward(x, params)
    return g, y


def main(x, params):
    model = Model(8, 2)
    return capture_decode(model, x, params)
