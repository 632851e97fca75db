# expected-no-diagnostics
import torch


def helper(x):
    return x * 2


def report(x):
    return x.sum().item()


static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    out = helper(static_x)
print(report(static_x))
