# Modules held in containers on self: built by a comprehension, filled by
# append, indexed by a literal or iterated. A module put in another
# container, or at another index, is not what runs.
import torch
from torch import nn


class Layer(nn.Module):
    def forward(self, x):
        return x * x.sum().item()  # expected-error {{sync-tensor-read}}


class Head(nn.Module):
    def forward(self, x):
        return x.cpu()  # expected-error {{sync-device-to-host-copy}}


class Probe(nn.Module):
    def forward(self, x):
        return x.nonzero()  # no finding: stored at index 1, only index 0 is called


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Layer() for _ in range(4)])
        self.heads = nn.ModuleList()
        self.heads.append(Head())
        self.probes = [None, None]
        self.probes[1] = Probe()

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        x = self.heads[0](x)
        if self.probes[0] is not None:
            x = self.probes[0](x)
        return x


net = Net()
static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = net(static_x)
