# expected-no-diagnostics
# Branches no process that captures can take: another backend's string, the
# else of a chain that a CUDA build and a ROCm build both leave earlier.
import torch

from system_info import ON_ROCM, SYSTEM


def segment_matmul(x, lengths):
    if SYSTEM == "ipex":
        return x[: lengths.max().item()]
    if SYSTEM not in ("cuda", "rocm"):
        torch.cuda.synchronize()
    return x * 2


def pick_kernel(x):
    if torch.version.hip:
        return x + 1
    elif torch.version.cuda:
        return x - 1
    else:
        return x.cpu()


def scale(x):
    if not ON_ROCM and not torch.version.cuda:
        print(x.sum().item())
    return x


def capture(x, lengths):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = segment_matmul(x, lengths)
        y = pick_kernel(y)
        y = scale(y)
    return g, y
