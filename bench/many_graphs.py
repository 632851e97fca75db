"""Captures G small graphs (default 100) while B blocks (default 20,000) are
live in PyTorch's caching allocator: the shape of a server that captures one
graph per batch size over a large heap. graphcheck reads the allocator's list
of live blocks at each instantiate whose graph points outside graph memory, so
this prints the seconds spent in all captures + instantiates, the same per
graph, and the live block count."""
import sys
import time

import torch

graphs = int(sys.argv[1]) if len(sys.argv) > 1 else 100
blocks = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
# Sizes spread over the small and large pools, each its own block.
heap = [torch.empty(512 * (1 + i % 64), device="cuda") for i in range(blocks)]
x = torch.zeros(4096, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    (x * 2 + 1).relu_()
torch.cuda.current_stream().wait_stream(s)
torch.cuda.synchronize()
kept = []
start = time.perf_counter()
for i in range(graphs):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = (x * 2 + i).relu_()  # Reads x, outside the graph's pool.
    kept.append((g, y))
torch.cuda.synchronize()
took = time.perf_counter() - start
for g, _ in kept:
    g.replay()
torch.cuda.synchronize()
print(f"instantiate_s {took:.4f}")
print(f"per_graph_ms {took / graphs * 1e3:.3f}")
print(f"live_blocks {len(heap) + 1}")
