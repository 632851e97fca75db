# Instances built by the class methods library bases give their subclasses
# (`Net.from_pretrained(path)`, `from_config`, Lightning's
# `load_from_checkpoint`) are instances of the class they are called on;
# modules held in lists joined or repeated (`[first] + [tied] * n`) are
# each of the classes the lists hold.
import torch
from torch import nn
from transformers import PreTrainedModel


class Net(PreTrainedModel):
    def forward(self, x):
        return x.sum().item()  # expected-error {{sync-tensor-read}}


class Norm(nn.Module):
    def forward(self, x):
        return x[x > 0]  # expected-error {{boolean-mask-indexing}}


class Gate(nn.Module):
    def forward(self, x):
        return x.nonzero()  # expected-error {{data-dependent-shape}}


class Engine:
    def __init__(self, model):
        self.model = model

    def run(self, x):
        return self.model(x)


class Speculator(nn.Module):
    def __init__(self, n, tied):
        super().__init__()
        if tied:
            first, rest = Norm(), Gate()
            self.proj = nn.ModuleList([first] + [rest] * (n - 1))
        else:
            self.proj = nn.ModuleList([nn.Linear(4, 4) for _ in range(n)])

    def forward(self, x, i):
        return self.proj[i](x)


def capture(engine, spec, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        engine.run(x)
        spec(x, 1)


target = Net.from_pretrained("checkpoint", torch_dtype=torch.float16)
target = target.eval()
capture(Engine(target), Speculator(3, True), torch.zeros(3, device="cuda"))
