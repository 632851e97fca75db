# expected-no-diagnostics
import torch

from settings import runtime
from solver import step

runtime.verbose = True

static_x = torch.zeros(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = step(static_x)
