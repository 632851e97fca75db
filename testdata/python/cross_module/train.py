# expected-no-diagnostics
# The capture is here; the unsafe code is two modules away, reached through pkg's re-export.
import torch

from pkg import Net

model = Net().cuda()
static_x = torch.randn(4, 8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = model(static_x)
