# A part swapped after the model was built, by a function the model is
# handed to (`use_sparse(model)`), or by a store in the capturing function
# itself: the capture runs the part the object holds then, not the one its
# constructor stored.
import torch
from torch import nn


class Dense(nn.Module):
    def forward(self, x):
        return x * 2


class Sparse(nn.Module):
    def forward(self, x):
        return x[x > 0]  # expected-error {{boolean-mask-indexing}}


class Pruned(nn.Module):
    def forward(self, x):
        return x.nonzero()  # expected-error {{data-dependent-shape}}


class Net(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    def forward(self, x):
        return self.encoder(x)


def use_sparse(model):
    model.encoder = Sparse()


def capture_swapped(x):
    model = Net(Dense())
    use_sparse(model)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)
    return g, y


def capture_replaced(x):
    model = Net(Dense())
    model.encoder = Pruned()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)
    return g, y
