# expected-no-diagnostics
# A subclass's own forward loops over the layers it appended: the layers a
# sibling class appends under the same attribute name are not its own.
import torch
from torch import nn


class Clean(nn.Module):
    def forward(self, x):
        return x * 2


class Probe(nn.Module):
    def forward(self, x):
        return x.sum().item()


class Transformer(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self._init_layers()

    def _init_layers(self):
        raise NotImplementedError


class Served(Transformer):
    def _init_layers(self):
        self.layers = nn.ModuleList()
        for _ in range(self.n):
            self.layers.append(Clean())

    def decode(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Debug(Transformer):
    def _init_layers(self):
        self.layers = nn.ModuleList()
        self.layers.append(Probe())

    def decode(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def main():
    x = torch.ones(4, device="cuda")
    model = Served(2)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        model.decode(x)
    Debug(1).decode(x)
