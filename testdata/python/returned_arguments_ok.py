# expected-no-diagnostics
# A set-up function hands the model it was given back, alone or in a
# tuple, after moving it (`model.to(dev)`) or wrapping it in DDP: the
# capture runs the forward of what the caller passed, not that of every
# subclass of the annotated base the program builds (Eager is built, and
# run, outside any capture).
import torch
from torch.nn.parallel import DistributedDataParallel as DDP


class Base(torch.nn.Module):
    pass


class Safe(Base):
    def forward(self, x):
        return x * 2


class Eager(Base):
    def forward(self, x):
        return x * x.sum().item()


def place(model):
    model = model.cuda()
    return model


def distribute(model, world_size):
    model = model.to("cuda")
    if world_size > 1:
        model = DDP(model)
    return model, world_size


def untouched(model):
    return model, 1


class Runner:
    def __init__(self, model: Base):
        self.model = model
        self.graph = torch.cuda.CUDAGraph()

    def capture(self, x):
        with torch.cuda.graph(self.graph):
            return self.model(x)


def train(x):
    model, world = distribute(Safe(), 2)
    Runner(model).capture(x)
    Runner(place(Safe())).capture(x)
    (model, _) = untouched(Safe())
    Runner(model).capture(x)


def evaluate(x):
    return Eager()(x)
