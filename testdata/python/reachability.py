# Helpers, methods through self, inherited methods and nested functions reached from a region.
import torch


class Base(torch.nn.Module):
    def check(self, x):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


class Model(Base):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        y = self.prepare(x)
        return self.check(self.lin(y))

    def prepare(self, x):
        def inner(v):
            return v.cpu()  # expected-error {{sync-device-to-host-copy}}

        inner(x)
        return helper(x)


def helper(x):
    return x.tolist()  # expected-error {{sync-tensor-read}}


def not_reached(x):
    return x.item()


model = Model().cuda()
static_x = torch.randn(2, 4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = model(static_x)
