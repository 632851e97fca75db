# expected-no-diagnostics
# A subclass with a forward of its own never runs the base's forward: the
# base's `self.moe_infer(x)` does not reach that subclass's moe_infer, even
# where the attribute may hold either class.
import torch
from torch import nn


class MoE(nn.Module):
    def forward(self, x):
        return self.moe_infer(x)

    def moe_infer(self, x):
        return x * 2


class InjectedMoE(MoE):
    def forward(self, x):
        return x * 3

    def moe_infer(self, x):
        return x.cpu()


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = MoE()

    def forward(self, x):
        return self.mlp(x)


def capture(model: Model, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        model(x)


def main():
    m = Model()
    m.mlp = InjectedMoE()
    capture(m, torch.ones(3, device="cuda"))
