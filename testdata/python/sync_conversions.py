# float(), int(), bool() of a tensor are host reads too.
import torch


class Scaler(torch.nn.Module):
    def forward(self, x):
        s = x.abs().max()
        scale = float(s)  # expected-error {{sync-tensor-read}}
        n = int(x.sum())  # expected-error {{sync-tensor-read}}
        flag = bool(s > 1)  # expected-error {{sync-tensor-read}}
        return x / 2


model = Scaler().cuda()
static_in = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    out = model(static_in)
