# The three graphs of pool_intermediate_out_of_order.py replayed in the order
# they were captured: g1 reads c before g2's replay reuses its block. Clean.
# graphcheck: --mode light
# graphcheck: --mode verify
import torch

torch.manual_seed(0)
N = 1 << 16
x = torch.randn(N, device="cuda")
pool = torch.cuda.graph_pool_handle()
g0, g1, g2 = torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph()
with torch.cuda.graph(g0, pool=pool):
    c = x * 2
with torch.cuda.graph(g1, pool=pool):
    y1 = c + 1
    del c
with torch.cuda.graph(g2, pool=pool):
    y2 = x * 5
torch.cuda.synchronize()
want = (x * 2 + 1).sum().item()
ok = []
for step in range(3):
    g0.replay()
    g1.replay()
    g2.replay()
    ok.append(abs(y1.sum().item() - want) < 1e-3 * abs(want) + 1e-2)
print("g1 read g0's data:", all(ok))
