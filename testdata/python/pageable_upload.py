# Building CUDA tensors from host data inside capture.
import torch


def make_bias(n):
    return torch.tensor([0.5] * n, device="cuda")  # expected-error {{sync-pageable-upload}}


static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    scale = torch.as_tensor([1.0, 2.0, 3.0, 4.0], device=torch.device("cuda"))  # expected-error {{sync-pageable-upload}}
    static_y = static_x * scale + make_bias(4)
