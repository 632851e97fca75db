# A registry dict of classes, filled by item where each backend imports,
# and a default taken from it (`next(iter(BACKBONES.values()))`, `.get`):
# the model builds whichever class the registry holds.
import torch
from torch import nn


class TorchBackbone(nn.Module):
    def forward(self, x):
        return x * x.norm().item()  # expected-error {{sync-tensor-read}}


class MambaBackbone(nn.Module):
    def forward(self, x):
        return x[x > 0]  # expected-error {{boolean-mask-indexing}}


class Head(nn.Module):
    def forward(self, x):
        return x.nonzero()  # expected-error {{data-dependent-shape}}


BACKBONES = {"torch": TorchBackbone}
try:
    BACKBONES["mamba"] = MambaBackbone
except ImportError:
    pass
HEADS = {}
HEADS["linear"] = Head

DEFAULT_BACKBONE = next(iter(BACKBONES.values()))


class Model(nn.Module):
    def __init__(self, backbone_cls=DEFAULT_BACKBONE, head="linear"):
        super().__init__()
        self.backbone = backbone_cls()
        self.head = HEADS.get(head, Head)()

    def step(self, x):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            y = self.head(self.backbone(x))
        return y
