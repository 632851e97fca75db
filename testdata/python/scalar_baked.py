# Python numbers read in capture are baked into the graph.
import torch

params = [torch.zeros(4, device="cuda", requires_grad=True)]
opt = torch.optim.SGD(params, lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10)
lr = 0.1
static_grad = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    cur = sched.get_last_lr()[0]  # expected-warning {{host-scalar-baked}}
    rate = opt.param_groups[0]["lr"]  # expected-warning {{host-scalar-baked}}
    params[0].data.add_(static_grad, alpha=-lr)
for step in range(100):
    lr = 0.1 * (0.99 ** step)  # expected-warning {{host-scalar-baked}}
    g.replay()
