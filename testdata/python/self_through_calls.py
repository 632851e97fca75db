# `self` keeps its class through `super().m()` and through a bound method
# kept in a local (`fn = self._capture if first else self._replay`), so the
# base's self calls run the subclass's overrides only, not every subclass's.
# A @staticmethod's first parameter is an argument like the others; a module
# wrapped by DistributedDataParallel runs its own forward when called.
import torch
from torch.nn.parallel import DistributedDataParallel


class Layer(torch.nn.Module):
    def __call__(self, *args):
        if self.graphed:
            fn = self._capture
        else:
            fn = self._plain
        return fn(*args)

    def _capture(self, x):
        return self.forward(x)

    def _plain(self, x):
        return self.forward(x)


class Attention(Layer):
    def __call__(self, x):
        self.calls = 0
        return super().__call__(x)

    def forward(self, x):
        return x.nonzero()  # expected-error {{data-dependent-shape}}


class Unused(Layer):
    def forward(self, x):
        return x.sum().item()  # not under capture: no Unused reaches the region


class Norm(torch.nn.Module):
    @staticmethod
    def check(out, name):
        if isinstance(out, tuple):
            raise ValueError(f"{name} returned a tuple")  # name is a str: no tensor printed
        return out

    def forward(self, x):
        return self.check(x * 2, "norm")


class Head(torch.nn.Module):
    def forward(self, x):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


def step(layer, norm, x):
    return norm(layer(x))


def run():
    layer = Attention()
    norm = Norm()
    head = DistributedDataParallel(Head())
    x = torch.zeros(8, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = step(layer, norm, x)
        head(y)


class StoredStatic:
    # A @staticmethod stored as a bound method takes every argument the call
    # through the attribute passes: none of them is a self.
    def __init__(self):
        self.hook = self.flush

    @staticmethod
    def flush(x):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x

    def run(self, x):
        return self.hook(x)


def run_stored_static():
    s = StoredStatic()
    x = torch.zeros(8, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        s.run(x)
