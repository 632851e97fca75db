# .item() and .tolist() on tensors inside a capture region read device values on the host.
import torch

static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = static_x * 2
    peak = y.max().item()  # expected-error {{sync-tensor-read}}
    # CHECK-MESSAGES@-1: reads a tensor value on the host
    values = y.tolist()  # expected-error {{sync-tensor-read}}
    first = static_x[0].item()  # expected-error {{sync-tensor-read}}
