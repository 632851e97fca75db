# expected-no-diagnostics
# Seeding before capture.
import torch

torch.manual_seed(0)
torch.cuda.manual_seed_all(0)
static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = static_x + torch.rand(8, device="cuda")

# The CPU generator's state restored in captured code (activation
# recomputation does it): no captured kernel draws from it.
cpu_state = torch.get_rng_state()
g2 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g2):
    torch.set_rng_state(cpu_state)
    static_z = static_x * 2
