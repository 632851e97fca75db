# expected-no-diagnostics
# A ModuleList built by a comprehension of one class's constructor holds
# that class, not its subclasses: a subclass built elsewhere (for another
# network) does not run in this network's blocks, whether the blocks are
# read from self or handed to a helper, and a sibling network that stores
# its own blocks under the same name does not change this one's.
import torch
from torch import nn


class Block(nn.Module):
    def forward(self, x):
        return x * 2


class CrossViewBlock(Block):
    def forward(self, x):
        views = torch.unique(x)
        return x * views.numel()


class Net(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(n)])

    def run(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class BaseNet(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(n)])


class CrossViewNet(BaseNet):
    def __init__(self, n):
        super().__init__(n)
        del self.blocks
        self.blocks = nn.ModuleList([CrossViewBlock() for _ in range(n)])


class ActionNet(BaseNet):
    def step(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def run_blocks(blocks, x):
    for block in blocks:
        x = block(x)
    return x


def capture(x):
    net = Net(4)
    action = ActionNet(4)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        net.run(x)
        run_blocks(net.blocks, x)
        action.step(x)
    return g
