# A graph object handed to a helper that captures with it.
import torch


def capture_into(graph_obj, inp):
    with torch.cuda.graph(graph_obj):
        out = step(inp)
    return out


def step(x):
    return x * x.max().item()  # expected-error {{sync-tensor-read}}


g = torch.cuda.CUDAGraph()
static_x = torch.randn(4, device="cuda")
static_y = capture_into(g, static_x)
