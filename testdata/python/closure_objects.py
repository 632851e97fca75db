# A nested function's model is the one its enclosing function holds when
# the nested function runs: where that function changes the model after
# defining it, or binds the name twice, the capture may run any part.
import torch
from torch import nn


class Dense(nn.Module):
    def forward(self, x):
        return x * 2


class Sparse(nn.Module):
    def forward(self, x):
        return x[x > 0]  # expected-error {{boolean-mask-indexing}}


class Other(nn.Module):
    def forward(self, x):
        return x.nonzero()  # expected-error {{data-dependent-shape}}


class Net(nn.Module):
    def __init__(self, kind):
        super().__init__()
        if kind == "dense":
            self.encoder = Dense()
        else:
            self.encoder = Sparse()

    def forward(self, x):
        return self.encoder(x)


def swapped_after(x):
    model = Net("dense")

    def step(x):
        return model(x)

    model.encoder = Other()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = step(x)
    return g, y


def bound_twice(x, sparse):
    model = Net("dense")
    if sparse:
        model = Net("sparse")

    def step(x):
        return model(x)

    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = step(x)
    return g, y
