# expected-no-diagnostics
# A registry holds the classes stored into it, not those of another
# registry the captured model never builds from.
import torch
from torch import nn


class Plain(nn.Module):
    def forward(self, x):
        return x * 2


class Debug(nn.Module):
    def forward(self, x):
        return x.sum().item()


BACKBONES = {}
BACKBONES["plain"] = Plain
TOOLS = {}
TOOLS["debug"] = Debug

DEFAULT_BACKBONE = next(iter(BACKBONES.values()))


class Model(nn.Module):
    def __init__(self, backbone_cls=DEFAULT_BACKBONE):
        super().__init__()
        self.backbone = backbone_cls()

    def step(self, x):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            y = self.backbone(x)
        TOOLS["debug"]()(y)
        return y
