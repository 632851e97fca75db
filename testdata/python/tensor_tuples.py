# The tuples torch's reductions and splits give (`torch.return_types.topk`
# and the like, declared as such in PyTorch's stubs) hold tensors: the
# names they are unpacked into, their `values` and `indices`, and what a
# helper returning such a call gives, are tensors, and a host test of one
# syncs.
import torch


def fast_topk(values, topk, dim):
    if topk == 1:
        return torch.max(values, dim=dim, keepdim=True)
    else:
        return torch.topk(values, topk, dim=dim)


def select(scores: torch.Tensor, k: int):
    probs, index = torch.topk(scores, k, dim=-1)
    if probs.max() > 1.0:  # expected-error {{data-dependent-branch}}
        probs = probs.clamp(max=1.0)
    best, _ = fast_topk(scores, k, dim=-1)
    top = int(best[0, 0])  # expected-error {{sync-tensor-read}}
    q, kv = scores.chunk(2, dim=-1)
    if q.sum() == 0:  # expected-error {{data-dependent-branch}}
        q = kv
    worst = scores.min(dim=-1).values
    return probs, index, top, q, worst.item()  # expected-error {{sync-tensor-read}}


def capture(scores):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = select(scores, 4)
    return g, out
