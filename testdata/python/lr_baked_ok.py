# expected-no-diagnostics
# A tensor learning rate lives on the device: the captured step reads it at
# every replay, so changing it in place between replays works.
import torch

model = torch.nn.Linear(8, 8).cuda()
lr = torch.tensor(1e-3, device="cuda")
opt = torch.optim.AdamW(model.parameters(), lr=lr, capturable=True)
static_x = torch.randn(4, 8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    model(static_x).sum().backward()
    opt.step()

for epoch in range(3):
    for _ in range(10):
        g.replay()
    lr.mul_(0.5)

# An optimizer stepped eagerly, with its own scheduler, is not the graph's.
eager_opt = torch.optim.SGD(model.parameters(), lr=0.1)
eager_sched = torch.optim.lr_scheduler.StepLR(eager_opt, step_size=10)
for _ in range(10):
    g.replay()
    eager_opt.step()
    eager_sched.step()
