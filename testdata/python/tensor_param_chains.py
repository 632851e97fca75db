# A tensor handed down through parameters, several calls deep, or the
# inputs of a callable make_graphed_callables captures handed on to its
# helpers: every parameter on the way takes a tensor.
import torch


def check(z):
    if z.isnan().any():  # expected-error {{data-dependent-branch}}
        z = torch.nan_to_num(z)
    return z


def normalise(y):
    return check(y)


def block(x):
    return normalise(x)


def clip(v):
    if v.abs().max() > 10:  # expected-error {{data-dependent-branch}}
        v = v.clamp(-10, 10)
    return v


def step(x):
    return clip(x) * 2


def capture():
    x = torch.randn(4, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = block(x)
    graphed = torch.cuda.make_graphed_callables(step, (x,))
    return g, out, graphed
