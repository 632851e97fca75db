# expected-no-diagnostics
# Debug checks under module flags read through the module (`import
# settings.runtime as runtime`, `from settings import runtime`): off, as
# their module binds them, so the captured step never syncs.
import torch

import settings.runtime as rt
from settings import runtime


def step(x):
    if rt.debug_nan:
        if torch.isnan(x).any():
            raise ValueError("x is nan")
    if runtime.verbose:
        print("step", x.sum().item())
    return x * 2


static_x = torch.zeros(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = step(static_x)
