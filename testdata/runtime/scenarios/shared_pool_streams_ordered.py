# graphcheck: --mode light
# graphcheck: --mode verify
# The same two pool-sharing graphs on two side streams, each replay ordered
# after the other's: s2 waits for s1 before g2 replays, s1 for s2 before the
# next g1 (wait_stream records an event and waits on it). A third graph with
# a pool of its own, captured on a capture stream of its own (so its matmuls
# get their own cuBLAS workspace rather than the one the first capture put in
# the shared pool), replays on a third stream alongside them, which is
# allowed. Clean.
import torch
torch.manual_seed(0)
x = torch.randn(512, 512, device="cuda")
w = torch.randn(512, 512, device="cuda")
for _ in range(2):
    (x @ w).relu(); (x @ w).sigmoid(); (x @ w).tanh()
torch.cuda.synchronize()
pool = torch.cuda.graph_pool_handle()
g1, g2, g3 = torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph()
with torch.cuda.graph(g1, pool=pool):
    y1 = ((x @ w).relu() @ w).sum()
with torch.cuda.graph(g2, pool=pool):
    y2 = ((x @ w).sigmoid() @ w).sum()
with torch.cuda.graph(g3, stream=torch.cuda.Stream()):
    y3 = ((x @ w).tanh() @ w).sum()
s1, s2, s3 = torch.cuda.Stream(), torch.cuda.Stream(), torch.cuda.Stream()
total = 0.0
for _ in range(3):
    with torch.cuda.stream(s3):
        g3.replay()
    with torch.cuda.stream(s1):
        g1.replay()
    s2.wait_stream(s1)
    with torch.cuda.stream(s2):
        g2.replay()
    s1.wait_stream(s2)
    torch.cuda.synchronize()
    total += y1.item() + y2.item() + y3.item()
print("total finite:", total == total)
