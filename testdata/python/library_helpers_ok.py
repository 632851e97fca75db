# expected-no-diagnostics
# Helpers of torch's submodules that answer host questions
# (`torch.onnx.is_in_onnx_export()`, a vendor backend's `torch.npu.
# current_device()`, `torch.random.initial_seed()`) are no tensor
# operations: branching on them under capture reads nothing from the GPU.
import torch


class Spectral(torch.nn.Module):
    def forward(self, x):
        if torch.onnx.is_in_onnx_export():
            return x.real
        if torch.serialization.get_default_load_endianness():
            x = x + 1
        return torch.fft.rfft(x).abs()


def capture(x):
    m = Spectral()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        m(x)
    return g
