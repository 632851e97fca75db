# Python control flow on tensor values: a sync, and replays keep capture's path.
import torch


class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # expected-error {{data-dependent-branch}}
            x = x * 2
        if not (x > 1).any():  # expected-error {{data-dependent-branch}}
            x = x + 1
        while x.norm() > 10:  # expected-error {{data-dependent-branch}}
            x = x / 2
        y = x if x.mean() > 0 else -x  # expected-error {{data-dependent-branch}}
        assert torch.isfinite(x).all()  # expected-error {{data-dependent-branch}}
        return y


def update(src, dst, noop_flag=None):
    if noop_flag is None and src.sum().item() > 0:  # expected-error {{sync-tensor-read}}
        return dst
    if noop_flag is not None or dst.max().item() > 1:  # expected-error {{sync-tensor-read}}
        return dst
    return dst.copy_(src)


gate = Gate().cuda()
static_x = torch.randn(4, device="cuda")
static_out = torch.empty(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = gate(static_x)
    update(static_x, static_out)
