# expected-no-diagnostics
# Branches on host values: None checks, module flags, shapes, Python numbers.
import torch


class Gate(torch.nn.Module):
    def __init__(self, scale: float = 2.0):
        super().__init__()
        self.scale = scale
        self.use_bias = True

    def forward(self, x, bias=None):
        if bias is not None:
            x = x + bias
        if self.training:
            x = x * 1.0
        if x.shape[0] > 2 and self.use_bias:
            x = x * self.scale
        if x.dim() == 1:
            x = x.unsqueeze(0)
        # The type's name, a string: `x.type(torch.half)` would cast.
        if x.type() == "torch.cuda.HalfTensor":
            x = x.float()
        return torch.where(x > 0, x, -x)


def update(src, dst, noop_flag=None):
    # The read sits behind a test of an argument the captured call leaves
    # at its default: `and`, `or` and `x if c else y` run their second part
    # only as the first decides.
    if noop_flag is not None and noop_flag.item() != 0:
        return dst
    skip = noop_flag is None or bool(noop_flag.item())
    scale = noop_flag.item() if noop_flag is not None else 1.0
    return dst.copy_(src * scale)


gate = Gate().cuda()
static_x = torch.randn(4, device="cuda")
static_out = torch.empty(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = gate(static_x)
    update(static_x, static_out)
