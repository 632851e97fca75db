# Callables kept for later: an attribute holding a function, a lambda stored on an object.
import torch


def sync_helper(x):
    return x * x.sum().item()  # expected-error {{sync-tensor-read}}
    # CHECK-NOTES@-1: 'sync_helper' is called here under capture


def safe_helper(x):
    return x * 2


class Step:
    def __init__(self, fast):
        self.fn = safe_helper
        if not fast:
            self.fn = sync_helper


step = Step(fast=False)
static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = step.fn(static_x)
