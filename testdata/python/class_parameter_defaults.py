# A class handed in as a parameter, or left to its default, builds the layers
# a container holds: `layer_class=Layer` then `self.layers.append(
# layer_class(...))`. Calling the layers runs the classes callers pass and
# the default.
import torch
from torch import nn


class Layer(nn.Module):
    def forward(self, x):
        return x * x.sum().item()  # expected-error {{sync-tensor-read}}


class GatedLayer(nn.Module):
    def forward(self, x):
        return x[x > 0]  # expected-error {{boolean-mask-indexing}}


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
    plain = Stack(2)
    gated = Stack(2, layer_class=GatedLayer)
    x = torch.ones(3, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        plain(x)
        gated(x)
