# A parameter rebound where its None-ness no longer follows the caller's
# value: replaced where it was None, converted under a test of another name,
# or chosen by a conditional expression. Each later test is reported for a
# caller passing None.
import torch


def filled_when_none(x, cu_seqlens=None):
    if cu_seqlens is None:
        cu_seqlens = torch.arange(2, device=x.device)
    if cu_seqlens is not None:
        x = x[: int(cu_seqlens[-1].item())]  # expected-error {{sync-tensor-read}}
    return x


def converted_under_other_test(x, mask=None, dtype=None):
    if dtype is not None:
        mask = mask.to(dtype)
    if mask is not None:
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x


def chosen(x, lengths=None):
    lengths = lengths.long() if lengths is not None else x.new_ones(1)
    if lengths is not None:
        x = x[: int(lengths.sum().item())]  # expected-error {{sync-tensor-read}}
    return x


def step(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = filled_when_none(x)
        y = converted_under_other_test(y, mask=None, dtype=torch.float16)
        y = chosen(y)
    return g, y
