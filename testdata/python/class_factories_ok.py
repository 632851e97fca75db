# A factory of layer classes reaches only the classes its returns may hold:
# not another module class built elsewhere with the same methods, and not a
# class the factory only makes an instance of along the way.
# expected-no-diagnostics
from functools import partial

import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim, heads=1):
        super().__init__()

    def forward(self, x):
        return x * 2


class LoudAttention(nn.Module):  # built for debugging, never by the factory
    def __init__(self, dim, heads=1):
        super().__init__()

    def forward(self, x):
        print("attention", x.shape)
        return x


class Probe(nn.Module):
    def forward(self, x):
        torch.cuda.synchronize()
        return x


def create_mixer_cls(config):
    probe = Probe()  # an instance, not a class: calling the result builds no Probe
    probe.eval()
    mixer_cls = partial(Attention, heads=config.heads)
    return mixer_cls


class Block(nn.Module):
    def __init__(self, dim, mixer_cls):
        super().__init__()
        self.mixer = mixer_cls(dim)

    def forward(self, x):
        return self.mixer(x)


class Model(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.layers = nn.ModuleList([Block(config.dim, create_mixer_cls(config)) for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def capture(config, x):
    model = Model(config)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        model(x)


def debug(x):
    return LoudAttention(4)(x)
