# Two scripts named train.py: each keeps its own functions.
import torch


def helper(x):
    return x.sum().item()  # expected-error {{sync-tensor-read}}


static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    out = helper(static_x)
