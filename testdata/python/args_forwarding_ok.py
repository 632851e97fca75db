# expected-no-diagnostics
# What `*args` and `**kwargs` do not hand on: a module passed only to the
# plain path, a position that stays in the helper's own `*rest`, a keyword
# the helper takes itself, and a keyword-only parameter after `*args`,
# which no position can fill. None of these reaches the capture.
import torch
from torch import nn


class Eager(nn.Module):
    def forward(self, x):
        return x * float(x.max())


class Plain(nn.Module):
    def forward(self, x):
        return x + 1


def run_graphed(model, data):
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = model(data)
    return graph, out


def run_plain(model, data):
    return model(data)


def plain_only(*args, **kwargs):
    return run_plain(*args, **kwargs)


def benchmark_eager(data):
    return plain_only(Eager(), data)


def graphed_only(*args, **kwargs):
    return run_graphed(*args, **kwargs)


def benchmark_plain(data):
    return graphed_only(Plain(), data)


# Only the first two positions go on; the third stays in `rest`.
def report(x):
    print(x.item())


def first_two(a, b, *rest):
    return run_graphed(a, b)


def benchmark_rest(data):
    return first_two(Plain(), data, report)


# `hook` is the helper's own keyword: not handed on.
def with_hook(*args, hook=None, **kwargs):
    if hook is not None:
        hook(args[1])
    return run_graphed(*args, **kwargs)


def benchmark_hook(data):
    return with_hook(Plain(), data, hook=report)


# A position past `*args` never fills the keyword-only `step` after it.
def capture_keyword_only(*args, step=None):
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        if step is not None:
            step(args[0])
    return graph


def benchmark_keyword_only(data):
    return capture_keyword_only(report, data)
