# Device tests that leave the CUDA path in place: the CUDA branch of an NPU
# test, a flag that only asks whether torch has an NPU module, and a project
# helper that merely shares a device helper's name all still run under the
# capture.
import os

import torch

use_npu = torch.npu.is_available()
npu_build = hasattr(torch, "npu")


def is_torch_npu_available():
    # Not the transformers helper: this project's own, which says whether
    # its fused kernels are built.
    return os.path.exists("/opt/fused/npu.so")


class CudaModel(torch.nn.Module):
    def forward(self, x):
        return x * 2


class NpuModel(torch.nn.Module):
    def forward(self, x):
        return x + 1


class Engine:
    def __init__(self):
        if not use_npu:
            self.model = CudaModel()
        else:
            self.model = NpuModel()

    def step(self, x):
        y = self.model(x)
        if use_npu:
            torch.npu.synchronize()
        else:
            torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        if npu_build:
            print(y.sum().item())  # expected-error {{sync-tensor-read}} expected-warning {{host-io-in-capture}}
        if is_torch_npu_available():
            y.tolist()  # expected-error {{sync-tensor-read}}
        return y


def capture(engine, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = engine.step(x)
    return g, out


capture(Engine(), torch.zeros(4, device="cuda"))
