# expect: replay-race-shared-pool at 27
# graphcheck: --mode light
# graphcheck: --mode verify
# Two graphs captured into one memory pool, then replayed on two side streams
# with nothing ordering them: the pool gave g2's temporaries the memory g1's
# temporaries used, and the two replays may run at the same time on the GPU.
# PyTorch allows graphs to share a pool only if they never run concurrently.
# (The values printed are not compared: the race makes them vary.)
import torch
torch.manual_seed(0)
x = torch.randn(512, 512, device="cuda")
w = torch.randn(512, 512, device="cuda")
for _ in range(2):
    (x @ w).relu(); (x @ w).sigmoid()
torch.cuda.synchronize()
pool = torch.cuda.graph_pool_handle()
g1, g2 = torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph()
with torch.cuda.graph(g1, pool=pool):
    y1 = ((x @ w).relu() @ w).sum()
with torch.cuda.graph(g2, pool=pool):
    y2 = ((x @ w).sigmoid() @ w).sum()
s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
for _ in range(3):
    with torch.cuda.stream(s1):
        g1.replay()
    with torch.cuda.stream(s2):
        g2.replay()
    torch.cuda.synchronize()
print("replayed: 3")
