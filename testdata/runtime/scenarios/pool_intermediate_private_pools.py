# The graphs of pool_intermediate_out_of_order.py, replayed in the same wrong
# order, but each captured into a pool of its own: c's block goes back to g0's
# pool when g1's capture frees it, g2 never gets it, and g1 reads g0's data.
# Clean.
# graphcheck: --mode light
# graphcheck: --mode verify
import torch

torch.manual_seed(0)
N = 1 << 16
x = torch.randn(N, device="cuda")
g0, g1, g2 = torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph()
with torch.cuda.graph(g0):
    c = x * 2
with torch.cuda.graph(g1):
    y1 = c + 1
    del c
with torch.cuda.graph(g2):
    y2 = x * 5
torch.cuda.synchronize()
want = (x * 2 + 1).sum().item()
ok = []
for step in range(3):
    g0.replay()
    g2.replay()
    g1.replay()
    ok.append(abs(y1.sum().item() - want) < 1e-3 * abs(want) + 1e-2)
print("g1 read g0's data:", all(ok))
