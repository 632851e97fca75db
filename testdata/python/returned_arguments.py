# A set-up function hands the model it was given back, alone or in a
# tuple, after moving it (`model.to(dev)`) or wrapping it in DDP: the
# capture runs the forward of what this caller passed.
import torch
from torch.nn.parallel import DistributedDataParallel as DDP


class Base(torch.nn.Module):
    pass


class Safe(Base):
    def forward(self, x):
        return x * 2


class Unsafe(Base):
    def forward(self, x):
        return x * x.sum().item()  # expected-error {{sync-tensor-read}}


def place(model):
    model = model.cuda()
    return model


def distribute(model, world_size):
    model = model.to("cuda")
    if world_size > 1:
        model = DDP(model)
    return model, world_size


class Runner:
    def __init__(self, model: Base):
        self.model = model
        self.graph = torch.cuda.CUDAGraph()

    def capture(self, x):
        with torch.cuda.graph(self.graph):
            return self.model(x)


def train_safe(x):
    model, _ = distribute(Safe(), 2)
    Runner(place(model)).capture(x)


def train_unsafe(x):
    model, world = distribute(Unsafe(), 2)
    Runner(model).capture(x)


# A callable handed back in a tuple is the one passed in.
def warmed_up(fn, steps):
    for _ in range(steps):
        fn()
    return fn, steps


def step_with_sync():
    loss = torch.ones(1, device="cuda")
    print(loss.item())  # expected-error {{sync-tensor-read}} expected-warning {{host-io-in-capture}}


def capture_step():
    graph = torch.cuda.CUDAGraph()
    fn, _ = warmed_up(step_with_sync, 3)
    with torch.cuda.graph(graph):
        fn()
