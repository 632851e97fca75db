# What a subclass stores in an attribute its base's method calls
# (`self.model(x)` in the base, `self.model = Head()` in the subclass):
# the base's method, run on the subclass's instance under capture, reaches it.
import torch


class Head(torch.nn.Module):
    def forward(self, x):
        return x * x.sum().item()  # expected-error {{sync-tensor-read}}


class Wrapper(torch.nn.Module):
    def forward(self, x):
        return self.model(x)


class HeadWrapper(Wrapper):
    def __init__(self):
        super().__init__()
        self.model = Head()


def capture(x):
    w = HeadWrapper()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        w(x)
    return g
