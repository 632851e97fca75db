# factories_ok.py's model where the captured path does reach the syncing
# code: a mixer picked from the table that syncs, and a capture whose
# inference state may be None (set up only on one branch).
from functools import partial

import torch
from torch import nn


class SyncingMixer(nn.Module):
    def __init__(self, dim, layer_idx=None):
        super().__init__()

    def forward(self, x, params=None):
        if params is None:
            counts = x.sum(-1).long()
            return torch.repeat_interleave(x, counts, dim=0)  # expected-error {{data-dependent-shape}}
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


class Block(nn.Module):
    def __init__(self, dim, mixer_cls):
        super().__init__()
        self.mixer = mixer_cls(dim)

    def forward(self, x, params=None):
        return self.mixer(x, params=params)


def create_block(dim, kind="sync", layer_idx=None):
    table = {"sync": SyncingMixer}
    mixer_cls = partial(table[kind], layer_idx=layer_idx)
    block = Block(dim, mixer_cls)
    return block


class Model(nn.Module):
    def __init__(self, dim, n):
        super().__init__()
        self.layers = nn.ModuleList([create_block(dim, layer_idx=i) for i in range(n)])

    def forward(self, x, params=None):
        for layer in self.layers:
            x = layer(x, params=params)
        return x


def capture_decode(model, x, params, warm):
    if warm:
        params.seqlen_offset = 1
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model.forward(x, params)
    return g, y


def main(x, params, warm):
    model = Model(8, 2)
    return capture_decode(model, x, params, warm)
