# expected-no-diagnostics
# A capture context kept in a local and entered on one step of a loop (the
# binding sits under `if step == capture_at:`) captures once; the other steps
# run the same block eagerly, where a host read is fine.
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
                loss.backward()
            if step < capture_at:
                print(loss.item())
        else:
            g.replay()
