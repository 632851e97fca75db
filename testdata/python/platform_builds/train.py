# Branches a CUDA or a ROCm build takes are captured code like any other.
import torch

from system_info import HAS_FAST_KERNELS, ON_ROCM, SYSTEM


def segment_matmul(x, lengths):
    if SYSTEM == "cuda":
        return x[: lengths.max().item()]  # expected-error {{sync-tensor-read}}
    if SYSTEM in ("rocm", "ipex"):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x * 2


def pick_kernel(x):
    if torch.version.hip:
        return x.cpu()  # expected-error {{sync-device-to-host-copy}}
    return x - 1


def scale(x):
    if ON_ROCM:
        x.sum().item()  # expected-error {{sync-tensor-read}}
    if HAS_FAST_KERNELS:
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x


def capture(x, lengths):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = segment_matmul(x, lengths)
        y = pick_kernel(y)
        y = scale(y)
    return g, y
