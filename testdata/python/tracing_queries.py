# The eager side of a tracing test runs under the capture.
import torch


def normalize(x):
    if not torch.compiler.is_compiling():
        return x / x.norm().item()  # expected-error {{sync-tensor-read}}
    return x / x.norm()


def capture(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        normalize(x)
    return g
