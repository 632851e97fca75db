# expected-no-diagnostics
# The learning rate lives in a device tensor the graph reads; changing it in place reaches replays.
import torch

params = [torch.zeros(4, device="cuda")]
lr = torch.tensor(0.1, device="cuda")
static_grad = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    params[0].sub_(static_grad * lr)
for step in range(100):
    lr.fill_(0.1 * (0.99 ** step))
    g.replay()
