# expected-no-diagnostics
# Locals, in-place tensor updates on attributes, state changed outside
# capture, and operators of a namespace whose names are containers' methods.
import operator

import torch


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.register_buffer("running", torch.zeros(4))
        self.calls = 0

    def forward(self, x):
        parts = []
        parts.append(x)
        count = 0
        count += 1
        y = self.lin(x)
        self.running += y.mean(0)
        self.running.mul_(0.9)
        y = torch.ops.my_kernels.add(y, x)
        return operator.add(y, x)


class StepOutput:
    """What one captured step hands back, built afresh by the step."""

    def __init__(self):
        self.logits = []
        self.steps = 0


def captured_step(model, x):
    out = StepOutput()
    out.logits.append(model(x))
    out.steps += 1
    return out


class CapturableOptimizer:
    """Keeps its step count on the device when made capturable."""

    def __init__(self, capturable):
        self.capturable = capturable
        self.state = {"step": torch.zeros((), device="cuda") if capturable else 0}
        self.found_inf = torch.zeros((), device="cuda")

    def step(self):
        # A tensor on the capturable path: updated in place on the device.
        self.state["step"] += 1 if not self.capturable else (self.found_inf != 1).to(torch.int)


model = Model().cuda()
optimizer = CapturableOptimizer(True)
static_x = torch.randn(2, 4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = model(static_x)
    static_out = captured_step(model, static_x)
    optimizer.step()
for i in range(3):
    g.replay()
    model.calls += 1
