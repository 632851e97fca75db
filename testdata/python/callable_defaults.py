# A callable parameter a call leaves to its default (`post=None`) or passes
# None holds no callable there, whatever other calls pass: the captured call
# of `helper` runs no hook; the chain of the one that does names the call
# that handed it over.
import torch


def helper(x, post=None):
    y = x * 2
    if post is not None:
        y = post(y)
    return y


def log_post(y):
    print("eager step", y)  # not under capture: only the eager call passes it
    return y


def sync_post(y):
    torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    # CHECK-NOTES@-1: 'with_hook' is called here under capture
    return y


def eager_step(x):
    return helper(x, post=log_post)


def captured(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        helper(x)
        helper(x, post=None)
        helper(x, None)


def with_hook(x):
    return helper(x, post=sync_post)


def captured_with_hook(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        with_hook(x)
