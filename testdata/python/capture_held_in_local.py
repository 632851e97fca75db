# A capture context kept in a local and entered later (`ctx =
# torch.cuda.graph(g) if capturing else nullcontext()`; `with ctx:`) is a
# capture region on the paths where the local holds it: what the block runs
# is captured code.
from contextlib import nullcontext

import torch


def train(model, x, steps, capture_at):
    g = torch.cuda.CUDAGraph()
    for step in range(steps):
        if step <= capture_at:
            if step == capture_at:
                ctx = torch.cuda.graph(g)
            else:
                ctx = nullcontext()
            with ctx:
                loss = model(x).sum()
                if loss.item() > 0:  # expected-error {{sync-tensor-read}}
                    loss.backward()
        else:
            g.replay()


def bench(fn, x, use_graph):
    g = torch.cuda.CUDAGraph()
    with (torch.cuda.graph(g) if use_graph else nullcontext()):
        y = fn(x)
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return y


def every_step(fn, x, steps):
    g = torch.cuda.CUDAGraph()
    ctx = torch.cuda.graph(g)
    for _ in range(steps):
        with ctx:  # expected-error {{capture-begin-twice}}
            fn(x)
