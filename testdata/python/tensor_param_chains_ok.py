# expected-no-diagnostics
# A host number handed down through parameters stays a host number: tests
# of it several calls deep are plain Python branches.
import torch


def pick(n, x):
    if n > 2:
        return x * 2
    return x


def middle(n, x):
    return pick(n, x)


def outer(n, x):
    return middle(n, x)


def capture(steps: int):
    x = torch.randn(4, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = outer(steps, x)
    return g, out
