# Host state changed in captured code: it changes once, at capture.
import torch

calls = 0
seen = []


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.step = 0
        self.losses = []

    def forward(self, x):
        global calls
        calls += 1  # expected-warning {{host-state-mutation}}
        self.step += 1  # expected-warning {{host-state-mutation}}
        # CHECK-MESSAGES@-1: replays never repeat it
        self.step = self.step + 1  # expected-warning {{host-state-mutation}}
        y = self.lin(x)
        self.losses.append(y)  # expected-warning {{host-state-mutation}}
        seen.append(1)
        return y


class StepOutput:
    # Shared by every instance: made once, before any capture.
    history = []

    def __init__(self):
        self.logits = []


def captured_step(model, x, out):
    made_here = StepOutput()
    made_here.history.append(x)  # expected-warning {{host-state-mutation}}
    out.logits.append(model(x))  # expected-warning {{host-state-mutation}}
    return made_here


model = Model().cuda()
static_x = torch.randn(2, 4, device="cuda")
kept = StepOutput()
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = model(static_x)
    seen.append(2)  # expected-warning {{host-state-mutation}}
    captured_step(model, static_x, kept)
