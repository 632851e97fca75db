# A capture written through the device module a program picks by device type
# (`torch.get_device_module(device)`, `getattr(torch, device_type)`, a
# variable holding `torch.cuda`): on a CUDA machine it is torch.cuda, and
# `module.graph(g)` is a capture region like `torch.cuda.graph(g)`.
import torch


class GraphRunner:
    def __init__(self, device):
        self.device_module = torch.get_device_module(device)

    def _capture_graph(self, graph, pool, run_once_fn):
        with self.device_module.graph(graph, pool=pool):
            out = run_once_fn()
        return out

    def capture(self, model, x):
        def run_once():
            y = model(x)
            self.device_module.synchronize()  # expected-error {{sync-device-synchronize}}
            return y

        graph = torch.cuda.CUDAGraph()
        return self._capture_graph(graph, None, run_once)


def by_type(x, device_type):
    backend = getattr(torch, device_type)
    g = backend.CUDAGraph()
    with backend.graph(g):
        n = x.sum().item()  # expected-error {{sync-tensor-read}}
    return g, n


def by_name(x):
    cuda = torch.cuda
    g = torch.cuda.CUDAGraph()
    with cuda.graph(g):
        y = x * 2
        cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return g, y
