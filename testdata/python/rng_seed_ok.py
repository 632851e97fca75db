# expected-no-diagnostics
# Seeding before capture.
import torch

torch.manual_seed(0)
torch.cuda.manual_seed_all(0)
static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = static_x + torch.rand(8, device="cuda")
