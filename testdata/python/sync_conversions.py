# float(), int(), bool() of a tensor are host reads too.
import torch


class Scaler(torch.nn.Module):
    def forward(self, x):
        s = x.abs().max()
        scale = float(s)  # expected-error {{sync-tensor-read}}
        n = int(x.sum())  # expected-error {{sync-tensor-read}}
        flag = bool(s > 1)  # expected-error {{sync-tensor-read}}
        return x / 2


def scale_arg(x, scale):
    scale_is_tensor = isinstance(scale, torch.Tensor)
    if not scale_is_tensor:
        arg = 1.0
    else:
        arg = float(scale)  # expected-error {{sync-tensor-read}}
    return x * arg


model = Scaler().cuda()
static_in = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    out = model(static_in)
    scaled = scale_arg(static_in, static_in.max())
