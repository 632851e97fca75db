# A model built from a class handed in (`model_cls=Llama`), kept on self by a
# base class's constructor, handed to a graph cache that keeps it too, and
# from there to the static method that captures its forward: each hand-off
# is a parameter of another class, and the capture runs the model built.
import torch
from torch import nn


class Llama(nn.Module):
    def forward(self, x):
        return x * x.sum().item()  # expected-error {{sync-tensor-read}}


class GraphWrapper:
    @staticmethod
    def trace(model: nn.Module, x):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            out = model.forward(x)
        return g, out


class GraphCache:
    def __init__(self, model: "Model"):
        self.model = model

    def warmup(self, x):
        return GraphWrapper.trace(self.model, x)


class Model:
    def __init__(self, model):
        self.model = model.eval()


class CausalLM(Model):
    def __init__(self, model_cls):
        model = model_cls()
        super().__init__(model=model)

    def init_graphs(self):
        self.graphs = GraphCache(self.model)


class LlamaLM(CausalLM):
    def __init__(self):
        super().__init__(model_cls=Llama)
