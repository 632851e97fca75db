# expected-no-diagnostics
# A model handed to a wrapper (an ensemble, an EMA copy, a filter) keeps its
# parts: the capture of the wrapper runs the encoder this model was built
# with, not the one another model, run eagerly, was given.
import torch
from torch import nn


class Dense(nn.Module):
    def forward(self, x):
        return x * 2


class Sparse(nn.Module):
    def forward(self, x):
        return x[x > 0]


class Net(nn.Module):
    def __init__(self, encoder):
        # Handing self to super() changes none of its parts.
        super(Net, self).__init__()
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
    model = Wrapper(Net(Dense()))
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)
    return g, y


def run_sparse_eagerly(x):
    return Wrapper(Net(Sparse()))(x)
