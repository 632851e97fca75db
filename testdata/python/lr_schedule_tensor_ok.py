# expected-no-diagnostics
# A scheduler whose get_lr() computes the learning rates on the device
# (`torch.where` over a step counter tensor) and writes them into the param
# groups: stepping it under capture records that computation, and every
# replay sets the rate of its own step. No host scalar is baked in.
import torch


class PolyWarmUp:
    def __init__(self, optimizer, base_lr, total_steps, device):
        self.optimizer = optimizer
        self.base_lr = torch.tensor(base_lr, device=device)
        self.total_steps = total_steps
        self.step_count = torch.zeros((), device=device)

    def step(self):
        self.step_count.add_(1)
        for group, lr in zip(self.optimizer.param_groups, self.get_lr()):
            group["lr"] = lr

    def get_lr(self):
        progress = self.step_count / self.total_steps
        lr = torch.where(progress < 0.1, self.base_lr * progress, self.base_lr * (1.0 - progress))
        return [lr for _ in self.optimizer.param_groups]


def capture(model, x):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scheduler = PolyWarmUp(optimizer, 0.1, 1000, "cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        model(x).sum().backward()
        scheduler.step()
    return g
