# Layers called as loop targets that enumerate() or zip() hand out (`for i,
# layer in enumerate(self.layers)`) are the layers of the list: their
# forward runs under the capture like a plain `for layer in self.layers`.
import torch
from torch import nn


class Layer(nn.Module):
    def forward(self, x):
        return x * x.sum().item()  # expected-error {{sync-tensor-read}}


class Norm(nn.Module):
    def forward(self, x):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.layers = nn.ModuleList()
        for _ in range(n):
            self.layers.append(Layer())
        self.norms = nn.ModuleList([Norm() for _ in range(n)])

    def forward(self, x, caches):
        for i, layer in enumerate(self.layers):
            x = layer(x + caches[i])
        for norm, cache in zip(self.norms, caches):
            x = norm(x) + cache
        return x


def capture(x, caches):
    model = Model(4)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        model(x, caches)
    return g
