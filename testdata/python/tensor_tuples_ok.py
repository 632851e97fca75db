# expected-no-diagnostics
# Tuples of tensors from torch's reductions kept on the device, and the
# host values that unpack from what is not a tensor (a shape, a size, a
# helper's mixed tuple).
import torch


def split_heads(x: torch.Tensor, heads: int):
    batch, seq = x.shape[:2]
    rows, cols = x.size(0), x.size(1)
    return x.view(batch, seq, heads, -1), rows * cols


def select(scores: torch.Tensor, k: int):
    probs, index = torch.topk(scores, k, dim=-1)
    probs = torch.where(probs > 1.0, torch.ones_like(probs), probs)
    values, _ = scores.max(dim=-1)
    heads, n = split_heads(scores, 2)
    if n > 0:
        heads = heads * 2
    return probs, index, values, heads


def capture(scores):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = select(scores, 4)
    return g, out
