# expected-no-diagnostics
# An annotation the code contradicts: every caller hands `trace` the wrapped
# module, not the serving wrapper its annotation names. The classes passed
# say what runs.
import torch
from torch import nn


class ServingWrapper:
    def forward(self, x):
        torch.cuda.synchronize()
        return x


class Net(nn.Module):
    def forward(self, x):
        return x * 2


def trace(model: ServingWrapper, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model.forward(x)
    return g, y


def main(x):
    return trace(Net(), x)
