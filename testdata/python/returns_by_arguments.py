# The returns a factory's arguments let run are followed: the wrapper built
# when `nn_module=False`, or when `kind == "wrapped"`, runs its callable.
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
    return x.sum().item()  # expected-error {{sync-tensor-read}}


def make_policy(device=None, nn_module=True):
    if nn_module:
        return Policy()
    return Wrapper(noisy)


def make_head(kind="linear"):
    if kind == "wrapped":
        return Wrapper(noisy)
    return Policy()


policy = make_policy("cuda", nn_module=False)
head = make_head("wrapped")
static_x = torch.zeros(2, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = head(policy(static_x))
