# A project autograd Function runs its static forward when apply() is
# called: what the forward does is captured with the caller. Its flags and
# lists are what the apply() call passes, not tensors; a container
# annotation (List[Tensor]) is a container.
from typing import List, Optional

import torch


class ScaleByNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, flags, workspaces):
        if not workspaces:
            workspaces = [torch.empty_like(x)]
        if flags:
            x = x * 2
        if scale:  # expected-error {{data-dependent-branch}}
            x = x * scale
        n = x.norm().item()  # expected-error {{sync-tensor-read}}
        return x / n

    @staticmethod
    def backward(ctx, grad):
        return grad, None, None, None


def cat_all(tensors: List[torch.Tensor], extra: Optional[List[torch.Tensor]] = None) -> torch.Tensor:
    if not tensors:
        raise ValueError("nothing to concatenate")
    if extra:
        tensors = tensors + extra
    return torch.cat(tensors)


class Registry:
    # Named like Function.apply, but no autograd Function: nothing it does
    # is a forward.
    def apply(self, fn):
        return fn


registry = Registry()
x = torch.randn(8, device="cuda")
s = torch.randn((), device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = ScaleByNorm.apply(x, s, False, [])
    z = cat_all([x, y])
    h = registry.apply(lambda v: v + 1)
