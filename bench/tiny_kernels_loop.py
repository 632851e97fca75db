"""A launch-bound training loop: a small MLP whose every step is about sixty
tiny eager kernels (forward, loss, backward, a per-parameter SGD step) plus
the replay of one small captured graph (a running metric), the GPU mostly
idle. What a checker adds per CUDA call shows here undiluted. Prints the
loop's own time and its fastest 50-step chunk, scaled to the loop
(looptiming.py)."""
import sys

import torch
from looptiming import time_loop

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.ReLU(), torch.nn.Linear(32, 32),
                            torch.nn.ReLU(), torch.nn.Linear(32, 1)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9, foreach=False)
x = torch.randn(16, 32, device="cuda")
y = torch.randn(16, 1, device="cuda")
static_loss = torch.zeros((), device="cuda")
running = torch.zeros((), device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    running.mul_(0.99).add_(static_loss, alpha=0.01)
torch.cuda.current_stream().wait_stream(s)
metric = torch.cuda.CUDAGraph()
with torch.cuda.graph(metric):
    running.mul_(0.99).add_(static_loss, alpha=0.01)


def step():
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    static_loss.copy_(loss.detach())
    metric.replay()


for _ in range(20):
    step()
time_loop(step, steps)
