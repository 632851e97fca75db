# Two graphs sharing one memory pool (graph_pool_handle), replayed in the
# order they were captured, as the documentation requires. Each output is
# consumed before the next replay. Clean.
import torch
torch.manual_seed(0)
x = torch.randn(64, 64, device="cuda")
w = torch.randn(64, 64, device="cuda")
for _ in range(2):
    (x @ w).relu(); (x @ w).sigmoid()
torch.cuda.synchronize()
pool = torch.cuda.graph_pool_handle()
g1, g2 = torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph()
with torch.cuda.graph(g1, pool=pool):
    y1 = (x @ w).relu()
with torch.cuda.graph(g2, pool=pool):
    y2 = (y1 @ w).sigmoid()
total = 0.0
for _ in range(4):
    x.copy_(torch.randn(64, 64, device="cuda"))
    g1.replay(); g2.replay()
    total += y2.sum().item()
print("total finite:", total == total)
