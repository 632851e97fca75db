# Graphs sharing a memory pool must replay in the order they were captured.
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
    g2.replay()  # expected-error {{read-after-overwrite}}
    g1.replay()

pool = torch.cuda.graph_pool_handle()
a = torch.cuda.CUDAGraph()
b = torch.cuda.CUDAGraph()
with torch.cuda.graph(a, pool=pool):
    ya = model(static_x)
with torch.cuda.graph(b, pool=pool):
    yb = model(ya)
b.replay()  # expected-error {{read-after-overwrite}}
a.replay()
