# expected-no-diagnostics
# Two functions each wrap the callable an attribute holds, one of them in a
# capture (`x.f = graphed(x.f)`). Each wrapper holds what the attribute held
# before its own store, never itself: the capture runs the original and the
# other wrapper at most, and no capture begins inside another. Attributes
# joined over the whole program made the capturing wrapper call itself.
import torch


class Compiled:
    def __init__(self, fn):
        self.current_callable = fn


def kernel(inputs):
    return inputs * 2


def graphed(model):
    graph = None

    def run(inputs):
        nonlocal graph
        if graph is None:
            graph = capture(model, inputs)
        graph.replay()

    return run


def capture(model, inputs):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        model(inputs)
    return g


def align(model, check):
    if not check:
        return model

    def run(inputs):
        return model(inputs.contiguous())

    return run


def post_compile(compiled):
    current_callable = compiled.current_callable
    compiled.current_callable = graphed(current_callable)


def realign(compiled, check):
    new_callable = align(compiled.current_callable, check)
    if new_callable is not compiled.current_callable:
        compiled.current_callable = new_callable


def main(use_graphs):
    compiled = Compiled(kernel)
    if use_graphs:
        post_compile(compiled)
    else:
        realign(compiled, [0])
    return compiled.current_callable(torch.zeros(4, device="cuda"))
