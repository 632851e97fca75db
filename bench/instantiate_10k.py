"""Captures and instantiates a 10,000-node graph; prints the seconds spent in
capture + instantiate (graphcheck walks every node at instantiate)."""
import time

import torch

x = torch.zeros(1024, device="cuda")
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    x.add_(1)
torch.cuda.synchronize()
g = torch.cuda.CUDAGraph()
start = time.perf_counter()
with torch.cuda.graph(g):
    for _ in range(10000):
        x.add_(1)
torch.cuda.synchronize()
print(f"instantiate_s {time.perf_counter() - start:.4f}")
