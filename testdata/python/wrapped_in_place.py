# Where the wrapper really is wrapped again: a later method wraps what
# __init__ already wrapped, and a subclass wraps after its base's __init__
# (called through super()) has wrapped.
import torch


def wrap(fn):
    graph = None

    def run(x):
        nonlocal graph
        if graph is None:
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):  # expected-error {{nested-capture}}
                fn(x)
        graph.replay()

    return run


class Trainer:
    def __init__(self):
        self.step = self.body
        self.step = wrap(self.step)

    def body(self, x):
        return x * 2


class Rewrapping:
    def __init__(self):
        self.step = wrap(self.body)

    def enable_graphs(self):
        self.step = wrap(self.step)

    def body(self, x):
        return x + 1


class DoubleWrapped(Trainer):
    def __init__(self):
        super().__init__()
        self.step = wrap(self.step)
