# Allocator maintenance inside capture.
import torch

static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = static_x * 2
    torch.cuda.empty_cache()  # expected-error {{alloc-in-capture}}
torch.cuda.empty_cache()
