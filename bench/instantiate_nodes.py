"""Captures and instantiates a graph of N kernel nodes (default 10,000); prints
the seconds spent in capture + instantiate (graphcheck walks every node at
instantiate), the same per node, and the process's peak resident memory
(graphcheck's injection lives in the process, so its memory shows there)."""
import resource
import sys
import time

import torch

nodes = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
x = torch.zeros(1024, device="cuda")
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    x.add_(1)
torch.cuda.synchronize()
g = torch.cuda.CUDAGraph()
start = time.perf_counter()
with torch.cuda.graph(g):
    for _ in range(nodes):
        x.add_(1)
torch.cuda.synchronize()
took = time.perf_counter() - start
g.replay()
torch.cuda.synchronize()
print(f"instantiate_s {took:.4f}")
print(f"per_node_us {took / nodes * 1e6:.2f}")
print(f"maxrss_mb {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}")
