# expected-no-diagnostics
import torch.nn as nn

from app.layers.norm import Norm


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = Norm()

    def forward(self, x):
        return self.norm(x)


class Net(nn.Module):
    def __init__(self, depth):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(depth)])

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x
