# Python ignores comment lines whatever their indentation; the grammar's
# indentation scanner does not, where a decorator commented out at column 0
# sits between a method's decorator and its def. The file is read as Python
# reads it: no parse warning, and the method's sync is found.
import functools

import torch
from torch import nn


def traced(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


class Head(nn.Module):
    @traced
#    @auto_docstring
    def forward(self, x):
        return x * x.sum().item()  # expected-error {{sync-tensor-read}}

    def extra(self, x):
# commented out:    x = x + 1
        return x


def capture(x):
    head = Head()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = head(x)
    return g, y
