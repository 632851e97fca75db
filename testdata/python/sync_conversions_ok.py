# expected-no-diagnostics
# float()/int() of host numbers and shapes are plain Python.
import torch


def step(x, lr: float, steps: int = 10):
    n = int(x.shape[0])
    half = float(lr) / 2
    m = int(steps)
    big = bool(x.numel() > 4)
    return x * half


static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = step(static_x, 0.1)
