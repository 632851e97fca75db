# expected-no-diagnostics
# The same debug paths outside any capture, and a gated helper that a
# capture never reaches: nothing to say.
import os

import torch


def dump_stats(t):
    print("mean", t.mean().item())


def step(x):
    return x * 2


static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = step(static_x)
if os.environ.get("MYPROJ_DEBUG"):
    torch.cuda.synchronize()
    dump_stats(static_y)
