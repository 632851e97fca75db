# expected-no-diagnostics
# Library code: a capture whose weights are whatever the caller hands in. A
# weight that knows how to gather itself is asked to (duck typing: no base
# class says which classes can be here).
import torch


def materialize(weights):
    leader = weights[0]
    if getattr(leader, "is_distributed", False):
        return leader.gather()
    return list(weights)


def capture_forward(weights, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = x
        for w in materialize(weights):
            out = out @ w
    return g, out
