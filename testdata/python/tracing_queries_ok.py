# expected-no-diagnostics
# Branches taken only while PyTorch traces or compiles the code: under a
# capture the Python code runs eagerly, so `torch.compiler.is_compiling()`,
# `torch.jit.is_scripting()` and their kin are false there, also when joined
# with other tests (`is_compiling() and cls is Batch`).
import torch
from torch.compiler import is_compiling


class Batch:
    def __init__(self, data, device=None):
        if is_compiling() and type(self) is Batch:
            torch.cuda.synchronize()  # only while Dynamo traces
        self.data = data


def normalize(x):
    if torch.jit.is_scripting() or torch.jit.is_tracing():
        return x / x.norm().item()
    if torch._dynamo.is_compiling():
        print(x)
    return x / x.norm()


def step(x):
    return normalize(Batch(x).data)


def capture(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        step(x)
    return g
