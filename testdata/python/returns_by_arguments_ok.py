# expected-no-diagnostics
# A factory whose returns sit under tests of its parameters: a call gets only
# the returns its arguments (and the defaults it leaves) let run. Here the
# module, never the wrapper whose callable syncs.
import torch


class Wrapper:
    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *args):
        return self.fn(*args)


class Policy(torch.nn.Module):
    def forward(self, x):
        return x * 2


def noisy(x):
    return x.sum().item()


def make_policy(device=None, nn_module=True):
    if nn_module:
        return Policy()
    return Wrapper(noisy)


def make_head(kind="linear"):
    if kind == "wrapped":
        return Wrapper(noisy)
    return Policy()


policy = make_policy("cuda")
head = make_head()
static_x = torch.zeros(2, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = head(policy(static_x))
