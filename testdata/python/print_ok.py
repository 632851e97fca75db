# expected-no-diagnostics
# Printing before capture and after replay.
import torch

static_x = torch.randn(4, device="cuda")
print(f"input {static_x}")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = static_x.sin()
g.replay()
print(static_y, f"{static_y.mean()}")
