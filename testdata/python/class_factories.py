# Layer classes handed around as class objects: a project function that
# returns a `partial` of a class chosen by a condition, a parameter that
# callers fill with it and that a default may replace, and the instance
# built by calling it. The capture reaches every class the factory may pick.
from functools import partial

import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim, heads=1):
        super().__init__()

    def forward(self, x):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


class ParallelAttention(nn.Module):
    def __init__(self, dim, heads=1, group=None):
        super().__init__()

    def forward(self, x):
        return x[x > 0]  # expected-error {{boolean-mask-indexing}}


class DefaultMlp(nn.Module):
    def __init__(self, dim):
        super().__init__()

    def forward(self, x):
        print("mlp", x.shape)  # expected-warning {{host-io-in-capture}}
        return x


def create_mixer_cls(config, group=None):
    mixer = Attention if group is None else ParallelAttention
    mixer_cls = partial(mixer, heads=config.heads)
    return mixer_cls


class Block(nn.Module):
    def __init__(self, dim, mixer_cls=None, mlp_cls=None):
        super().__init__()
        if mixer_cls is None:
            mixer_cls = partial(Attention, heads=dim // 64)
        if mlp_cls is None:
            mlp_cls = DefaultMlp
        self.mixer = mixer_cls(dim)
        self.mlp = mlp_cls(dim)

    def forward(self, x):
        return self.mlp(self.mixer(x))


def create_block(config, group=None):
    mixer_cls = create_mixer_cls(config, group)
    return Block(config.dim, mixer_cls)


class Model(nn.Module):
    def __init__(self, config, group=None):
        super().__init__()
        self.layers = nn.ModuleList([create_block(config, group) for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def capture(config, x):
    model = Model(config)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        model(x)
