# Objects and callables that reach captured code through `*args` and
# `**kwargs` handed on: a dispatcher that picks the graphed variant by a
# flag, a wrapper module whose forward hands everything to the module it
# wraps, and a chain of two such helpers. What the captured code calls is
# what the outermost caller passed.
import torch
from torch import nn


class Scorer(nn.Module):
    def forward(self, x):
        return x * float(x.max())  # expected-error {{sync-tensor-read}}


def run_graphed(model, data):
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = model(data)
    return graph, out


def run_plain(model, data):
    return model(data)


def benchmark(*args, graphs=False, **kwargs):
    if graphs:
        return run_graphed(*args, **kwargs)
    return run_plain(*args, **kwargs)


def benchmark_scorer(data):
    return benchmark(Scorer(), data, graphs=True)


class Counter(nn.Module):
    def forward(self, x):
        print("step", x.sum())  # expected-error {{sync-print-tensor}}
        return x + 1


def benchmark_counter_by_keyword(data):
    return benchmark(model=Counter(), data=data, graphs=True)


# Callables too: a step function handed through two helpers.
def lossy_step(batch):
    return batch.nonzero()  # expected-error {{data-dependent-shape}}


def capture_step(step_fn, batch):
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        step_fn(batch)
    return graph


def with_logging(*args, **kwargs):
    return capture_step(*args, **kwargs)


def timed(label, *args, **kwargs):
    return with_logging(*args, **kwargs)


def build(batch):
    return timed("capture", lossy_step, batch)


# A wrapper module: its forward hands its arguments to the wrapped module,
# which the capture runs.
class Reducer(nn.Module):
    def forward(self, x, scale):
        return x.sum() * scale.item()  # expected-error {{sync-tensor-read}}


class Traced(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, *args, **kwargs):
        return self.call_inner(self.inner, *args, **kwargs)

    def call_inner(self, module, *args, **kwargs):
        return module(*args, **kwargs)


def capture_traced(x, scale):
    traced = Traced(Reducer())
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        traced(x, scale=scale)
    return graph
