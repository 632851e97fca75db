# A binding made in an if/elif chain reaches past a later if with no else
# that may rebind the name (`if frozen: part = Frozen(part)`): every class
# the chain builds is what the holder may call, not only the last branch's.
import torch
from torch import nn


class First(nn.Module):
    def forward(self, x):
        return x[x > 0]  # expected-error {{boolean-mask-indexing}}


class Second(nn.Module):
    def forward(self, x):
        return x + 1


class Frozen(nn.Module):
    # Stands in for the part it froze: its own constant output.
    def __init__(self, inner):
        super().__init__()
        self.source = type(inner).__name__

    def forward(self, x):
        return x * 0


class Holder:
    def __init__(self, part):
        self.part = part

    def run(self, x):
        return self.part(x)


def build(kind, frozen):
    if kind == "first":
        part = First()
    elif kind == "second":
        part = Second()
    else:
        raise ValueError(kind)
    if frozen:
        part = Frozen(part)
    return Holder(part)


def capture(holder, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = holder.run(x)
    return g, y


def main(kind, frozen, x):
    return capture(build(kind, frozen), x)
