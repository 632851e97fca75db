# expected-no-diagnostics
# A method called through its class takes its first argument as self
# (`Base.make(self, factory)`): the arguments after it are the parameters
# after self, so `factory` is the class passed, never the object.
import torch


class Loss:
    def make(self, factory, **kw):
        self.estimator = factory(**kw)
        return self

    def forward(self, x):
        return x.sum().item()

    def __call__(self, x):
        return self.forward(x)


class Estimator:
    def __init__(self, gamma=0.9):
        self.gamma = gamma


class ClippedLoss(Loss):
    def make(self, factory, **kw):
        Loss.make(self, factory, **kw)
        return self


def step(loss, x):
    loss.make(Estimator, gamma=0.99)
    return x * 2


loss = ClippedLoss()
static_x = torch.zeros(2, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = step(loss, static_x)
