# Side streams in capture need a fork (wait on the capturing stream) and a join.
import torch

side = torch.cuda.Stream()
other = torch.cuda.Stream()
static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    with torch.cuda.stream(side):  # expected-error {{side-stream-without-fork}}
        a = static_x * 2
    other.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(other):  # expected-error {{fork-not-joined}}
        b = static_x + 1

# A wait after the block's own work is not a fork.
s0 = torch.cuda.Stream()
g2 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g2, stream=s0):
    with torch.cuda.stream(side):  # expected-error {{side-stream-without-fork}}
        c = static_x * 3
        side.wait_stream(s0)
    s0.wait_stream(side)


# A module's own auxiliary stream, used in forward without a fork: the capture
# that calls forward fails.
class TwoTower(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.aux_stream = torch.cuda.Stream()
        self.left = torch.nn.Linear(8, 8)
        self.right = torch.nn.Linear(8, 8)

    def forward(self, x):
        with torch.cuda.stream(self.aux_stream):  # expected-error {{side-stream-without-fork}}
            r = self.right(x)
        torch.cuda.current_stream().wait_stream(self.aux_stream)
        return self.left(x) + r


towers = TwoTower().cuda()
g3 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g3):
    out = towers(static_x)
