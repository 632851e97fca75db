# expected-no-diagnostics
# .item() outside capture, after replay, and on values that are not tensors.
import numpy as np
import torch

static_x = torch.randn(8, device="cuda")
warm = static_x.sum().item()  # before capture: fine
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = static_x * 2
    count = 3
    count_item = np.int64(count).item()  # numpy scalar: host only
    arr = np.zeros(4)
    total = arr.sum().item()
g.replay()
print(static_y.sum().item())  # after replay: fine
