# Starred elements of a bare tuple (`return a, *b`, `x = *a, b`, `head,
# *rest = ...`) are valid Python since 3.8, though tree-sitter-python's
# grammar rejects them: the file is read as Python reads it, with no parse
# warning, and what the captured code does around them is found.
import torch


def grads(runner, params):
    return None, None, *runner.static_grad_inputs, *(None,) * len(params)


def split(endpoint):
    host, *rest = endpoint, *[]
    shape = *((1,) * 2), -1, 1
    return host, rest, shape


def step(x, extra):
    n = x.sum().item()  # expected-error {{sync-tensor-read}}
    return x, *extra, n


def run(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = step(x, [x])
    return y
