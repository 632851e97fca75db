# expected-no-diagnostics
# Integer and slice indexing keep shapes fixed; masks used arithmetically are fine.
import torch


class Filter(torch.nn.Module):
    def forward(self, x):
        mask = x > 0
        kept = torch.where(mask, x, torch.zeros_like(x))
        head = x[:4]
        picked = x[torch.arange(4, device=x.device)]
        # A scalar written through a mask is masked_fill: no host read.
        x[mask] = 0
        x[~mask] = 1.5
        return (x * mask).sum() + kept.sum() + head.sum() + picked.sum()


f = Filter()
static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_out = f(static_x)
