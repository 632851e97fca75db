# expected-no-diagnostics
# Uploads before capture, and device-side constructors inside it.
import torch

scale = torch.tensor([1.0, 2.0, 3.0, 4.0], device="cuda")
static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    ones = torch.ones(4, device="cuda")
    host_side = torch.tensor([1.0])
    static_y = static_x * scale + ones
g.replay()
scale.copy_(torch.tensor([2.0, 2.0, 2.0, 2.0]))
