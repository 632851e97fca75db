# A base's forward calling `self.moe_infer(x)` runs the moe_infer of every
# subclass it runs on: one that keeps the base's forward, and one whose own
# forward calls on to it with super().
import torch
from torch import nn


class MoE(nn.Module):
    def forward(self, x):
        return self.moe_infer(x)

    def moe_infer(self, x):
        return x * 2


class CpuMoE(MoE):
    def moe_infer(self, x):
        return x.cpu()  # expected-error {{sync-device-to-host-copy}}


class ScaledMoE(MoE):
    def forward(self, x):
        return super().forward(x) * 3

    def moe_infer(self, x):
        return x[x > 0]  # expected-error {{boolean-mask-indexing}}


class Model(nn.Module):
    def __init__(self, moe_cls):
        super().__init__()
        self.mlp = moe_cls()

    def forward(self, x):
        return self.mlp(x)


def capture(x):
    for cls in (MoE, CpuMoE, ScaledMoE):
        model = Model(cls)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            model(x)
