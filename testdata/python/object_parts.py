# A model handed to a wrapper keeps its parts: the capture of a wrapper
# around the sparse model runs the sparse encoder (object_parts_ok.py
# captures the dense one).
import torch
from torch import nn


class Dense(nn.Module):
    def forward(self, x):
        return x * 2


class Sparse(nn.Module):
    def forward(self, x):
        return x[x > 0]  # expected-error {{boolean-mask-indexing}}


class Net(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    def forward(self, x):
        return self.encoder(x)


class Wrapper(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x) + 1


def capture_wrapped(x):
    model = Wrapper(Net(Sparse()))
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)
    return g, y


def run_dense_eagerly(x):
    return Wrapper(Net(Dense()))(x)
