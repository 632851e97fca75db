# A callable kept in an attribute and wrapped in place (`x.f = wrap(x.f)`):
# the wrapper calls what the attribute held before, and code reading the
# attribute later runs the wrapper. Both are followed under capture.
import torch


class Compiled:
    def __init__(self, fn):
        self.current_callable = fn


def kernel(inputs):
    return inputs.sum().item()  # expected-error {{sync-tensor-read}}


def timed(model):
    def run(inputs):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return model(inputs)

    return run


def add_timing(compiled):
    compiled.current_callable = timed(compiled.current_callable)


def capture(compiled, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        compiled.current_callable(x)
    return g


def main():
    compiled = Compiled(kernel)
    add_timing(compiled)
    capture(compiled, torch.zeros(4, device="cuda"))
