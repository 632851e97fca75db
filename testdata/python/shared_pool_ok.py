# expected-no-diagnostics
# Shared pools replayed in capture order, and graphs with private pools in any order.
import torch

model = torch.nn.Linear(8, 8).cuda()
static_x = torch.randn(4, 8, device="cuda")

g1 = torch.cuda.CUDAGraph()
g2 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g1):
    h = model(static_x)
with torch.cuda.graph(g2, pool=g1.pool()):
    y = model(h)
for _ in range(10):
    g1.replay()
    g2.replay()

p = torch.cuda.CUDAGraph()
q = torch.cuda.CUDAGraph()
with torch.cuda.graph(p):
    yp = model(static_x)
with torch.cuda.graph(q):
    yq = model(static_x)
q.replay()
p.replay()
