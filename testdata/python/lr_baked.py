# A learning rate that is a Python number is baked into a captured optimizer
# step: schedulers and param-group writes after capture do not reach replays.
import torch

model = torch.nn.Linear(8, 8).cuda()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, capturable=True)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10)
static_x = torch.randn(4, 8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    model(static_x).sum().backward()
    opt.step()

for epoch in range(3):
    for _ in range(10):
        g.replay()
    sched.step()  # expected-warning {{host-scalar-baked}}
    for group in opt.param_groups:
        group["lr"] = group["lr"] * 0.5  # expected-warning {{host-scalar-baked}}
    opt.param_groups[0]["lr"] = 1e-4  # expected-warning {{host-scalar-baked}}
