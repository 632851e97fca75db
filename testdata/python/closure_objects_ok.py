# expected-no-diagnostics
# A function nested in the one that builds the model reads the model that
# function built: the capture of the nested step runs the parts the model
# was built with, not those another model, run eagerly, was given.
import torch
from torch import nn


class Dense(nn.Module):
    def forward(self, x):
        return x * 2


class Sparse(nn.Module):
    def forward(self, x):
        return x[x > 0]


class Net(nn.Module):
    def __init__(self, kind):
        super().__init__()
        if kind == "dense":
            self.encoder = Dense()
        else:
            self.encoder = Sparse()

    def forward(self, x):
        return self.encoder(x)


def train(x):
    model = Net("dense").cuda()

    def step(x):
        return model(x)

    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = step(x)
    return g, y


def run_sparse_eagerly(x):
    return Net("sparse")(x)
