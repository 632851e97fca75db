# expected-no-diagnostics
# Two subclasses of one base each keep their own `self.model`: what one of
# them stores is not what the other's forward calls, though both are
# attributes of the same name under the same base.
import torch
from torch import nn


class Module(nn.Module):
    pass


class Probe(Module):
    def forward(self, x):
        return x.max().item()  # eager only


class Encoder(Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(4, 4), nn.ReLU())

    def forward(self, x):
        return self.model(x)


class Wrapper(Module):
    def __init__(self, model: Module):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)


def capture(x):
    enc = Encoder()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        enc(x)
    return g


def evaluate(x):
    probe = Probe()
    return Wrapper(probe)(x), probe
