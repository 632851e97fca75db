# expected-no-diagnostics
# A parameter converted where it is not None (`if mask is not None: mask =
# mask.to(...)`) is None exactly where the caller passed None: the branch
# that tests it later is dead for a caller passing None.
import torch


def varlen_forward(x, cu_seqlens=None):
    if cu_seqlens is not None and cu_seqlens.dtype != torch.int32:
        cu_seqlens = cu_seqlens.to(torch.int32)
    if cu_seqlens is not None:
        n = int(cu_seqlens[-1].item())
        x = x[:n]
    return x


def masked_forward(x, mask=None):
    if mask is not None:
        mask = mask.to(x.dtype)[:, None].contiguous()
        if mask is not None:
            mask = mask.float()
    if mask is None:
        return x
    torch.cuda.synchronize()
    return x * mask


def step(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = varlen_forward(x)
        y = masked_forward(y, mask=None)
    return g, y
