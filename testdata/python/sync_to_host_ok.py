# expected-no-diagnostics
# Copies to the host after replay, and module moves, are not captured syncs.
import torch

net = torch.nn.Linear(4, 4).cuda()
static_x = torch.randn(2, 4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = net(static_x)
    half = static_y.to(torch.float16)
g.replay()
result = static_y.cpu()
cpu_net = net.cpu()
