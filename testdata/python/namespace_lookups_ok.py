# expected-no-diagnostics
# The namespace holds other classes too: those no string of the program names
# are not what `globals()[name]` picks, here a helper whose forward syncs.
import argparse

import torch
from torch import nn


class Encoder(nn.Module):
    def forward(self, x):
        return x + 1


class Decoder(nn.Module):
    def forward(self, x):
        return x - 1


class Probe(nn.Module):
    def forward(self, x):
        return x.sum().item()


parser = argparse.ArgumentParser()
parser.add_argument("--arch", choices=["Encoder", "Decoder"], default="Encoder")
args = parser.parse_args()

net = globals()[args.arch]()
probe = Probe()

static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = net(static_x)
