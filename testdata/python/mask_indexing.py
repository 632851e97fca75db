# Boolean-mask indexing has a data-dependent shape.
import torch


class Filter(torch.nn.Module):
    def forward(self, x):
        mask = x > 0
        kept = x[mask]  # expected-error {{boolean-mask-indexing}}
        finite = x[torch.isfinite(x)]  # expected-error {{boolean-mask-indexing}}
        x[mask] = finite  # expected-error {{boolean-mask-indexing}}
        return kept.sum() + finite.sum()


f = Filter()
static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_out = f(static_x)
