# expect: replay-race-shared-pool at 27
# graphcheck: --mode light
# graphcheck: --mode verify
# Two graphs with pools of their own, both captured on torch.cuda.graph's
# default capture stream, replayed on two side streams with nothing ordering
# them. Their own pools do not make this safe: PyTorch keeps the cuBLAS
# workspace per stream, so the workspace made during the first capture (in its
# pool) is baked into both graphs' matmuls (pytorch/pytorch#193402).
# (The values printed are not compared: the race may make them vary.)
import torch
torch.manual_seed(0)
x = torch.randn(512, 512, device="cuda")
w = torch.randn(512, 512, device="cuda")
for _ in range(2):
    (x @ w).relu(); (x @ w).tanh()
torch.cuda.synchronize()
g1, g2 = torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph()
with torch.cuda.graph(g1):
    y1 = ((x @ w).relu() @ w).sum()
with torch.cuda.graph(g2):
    y2 = ((x @ w).tanh() @ w).sum()
s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
for _ in range(3):
    with torch.cuda.stream(s1):
        g1.replay()
    with torch.cuda.stream(s2):
        g2.replay()
    torch.cuda.synchronize()
print("replayed: 3")
