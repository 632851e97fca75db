# A base model's forward loops over layers its subclasses build: appended
# one by one in an `_init_layers` the base's constructor calls, or held in a
# ModuleList made by a comprehension. The loop runs what each subclass
# stored.
import torch
from torch import nn


class LlamaBlock(nn.Module):
    def forward(self, x):
        return x * x.sum().item()  # expected-error {{sync-tensor-read}}


class MoEBlock(nn.Module):
    def forward(self, x):
        return x[x > 0]  # expected-error {{boolean-mask-indexing}}


class Transformer(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self._init_layers()

    def _init_layers(self):
        raise NotImplementedError

    def decode(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Llama(Transformer):
    def _init_layers(self):
        self.layers = nn.ModuleList()
        for _ in range(self.n):
            self.layers.append(LlamaBlock())


class MoE(Transformer):
    def _init_layers(self):
        self.layers = nn.ModuleList([MoEBlock() for _ in range(self.n)])


def capture(model, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        model.decode(x)
    return g


def main():
    x = torch.ones(4, device="cuda")
    capture(Llama(2), x)
    capture(MoE(2), x)
