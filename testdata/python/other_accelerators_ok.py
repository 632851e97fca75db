# expected-no-diagnostics
# A serving engine that runs on CUDA or on an Ascend NPU picks its model and
# its ops by testing which device is there. A CUDA graph is captured only on
# CUDA, so what the NPU branches store and call is no part of the capture.
import torch
from transformers.utils import is_torch_xpu_available

try:
    import torch_npu

    use_npu = torch_npu.npu.is_available()
except ImportError:
    use_npu = False


def is_npu():
    return hasattr(torch, "npu") and torch.npu.is_available()


class CudaModel(torch.nn.Module):
    def forward(self, x):
        return x * 2


class NpuModel(torch.nn.Module):
    def forward(self, x):
        # Ascend's graph mode takes host scalars here.
        n = int(x.sum().item())
        return x[:n]


class Engine:
    def __init__(self):
        if use_npu:
            self.model = NpuModel()
        else:
            self.model = CudaModel()

    def step(self, x):
        y = self.model(x)
        if is_npu():
            torch.npu.synchronize()
        elif not torch.cuda.is_available():
            print("no accelerator:", y.sum().item())
        if is_torch_xpu_available():
            y = y.cpu()
        return y


def capture(engine, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = engine.step(x)
    return g, out


capture(Engine(), torch.zeros(4, device="cuda"))
