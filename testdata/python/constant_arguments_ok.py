# expected-no-diagnostics
# The same helpers, called under capture with literals whose branches never
# sync or print: `only_inputs=True` (also the default), `check=None`,
# `debug=False` left to its default, `verbose=False` taking the early return.
# A call through a value (a functools.partial, which may have bound
# arguments) decides nothing; here the partial binds debug=False itself.
import functools

import torch


def grad_helper(x, only_inputs=True, check=None, debug=False):
    if not only_inputs:
        x = x * x.sum().item()
    if check is not None:
        print("check", check)
    if debug:
        return x.cpu()
    return x * 2


def step(x, verbose):
    if not verbose:
        return x
    print("step", x.shape)
    return x


def sync_unless_capturing(x, capturing):
    if not capturing:
        torch.cuda.synchronize()
    return x


def layer(x, capturing):
    return sync_unless_capturing(x, capturing)


def model(x, capturing=True):
    return layer(x, capturing)


def quiet(x, verbose=False):
    if verbose:
        print("quiet", x.shape)
    return x


static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = grad_helper(static_x, only_inputs=True, check=None)
    y = grad_helper(static_x)
    z = step(static_x, False)
    w = quiet(static_x)
    v = layer(static_x, True)
    u = model(static_x)  # the default, passed on twice
