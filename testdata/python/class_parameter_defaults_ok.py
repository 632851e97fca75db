# expected-no-diagnostics
# A class parameter's default that no layer a capture runs is built from:
# the stack captured is given its class, and the default's own forward is
# called only outside any capture.
import torch
from torch import nn


class Layer(nn.Module):
    def forward(self, x):
        return x * 2


class Probe(nn.Module):
    def forward(self, x):
        return x.sum().item()


class Stack(nn.Module):
    def __init__(self, n, layer_class=Layer):
        super().__init__()
        self.layers = nn.ModuleList()
        for _ in range(n):
            self.layers.append(layer_class())

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def main():
    stack = Stack(2)
    x = torch.ones(3, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        stack(x)
    Probe()(x)
