# expected-no-diagnostics
# Fork and join around the side stream's work, as the PyTorch docs show.
import torch

side = torch.cuda.Stream()
static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        a = static_x * 2
    torch.cuda.current_stream().wait_stream(side)
    static_y = a + static_x
# Warm-up on a side stream outside capture needs nothing.
with torch.cuda.stream(side):
    static_x.add_(0)
