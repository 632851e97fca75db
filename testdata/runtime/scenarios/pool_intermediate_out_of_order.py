# Three graphs captured into one memory pool pass data on: g1 reads g0's
# output c and lets it go during its own capture (del c), so the pool gives
# c's block to g2's output. Replayed g0, g2, g1 (not the order they were
# captured in), g1 reads g2's numbers instead of c's: a wrong sum, no error.
# expect: replay-input-overwritten
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
    g2.replay()
    g1.replay()
    ok.append(abs(y1.sum().item() - want) < 1e-3 * abs(want) + 1e-2)
print("g1 read g0's data:", all(ok))
