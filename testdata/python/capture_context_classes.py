# A context manager written as a class, whose __enter__ begins the capture and
# whose __exit__ ends it, makes its `with` body a capture region, as
# torch.cuda.graph does (an accelerator-neutral runner's DeviceGraphContext).
import torch


class DeviceGraphContext:
    def __init__(self, graph, pool=None):
        self._graph = graph
        self._pool = pool

    def __enter__(self):
        self._graph.capture_begin(self._pool)
        return self

    def __exit__(self, *args):
        self._graph.capture_end()


class Capturing(DeviceGraphContext):
    """Inherits the capture from its base."""


class Model(torch.nn.Module):
    def forward(self, x):
        return x * x.max().item()  # expected-error {{sync-tensor-read}}


model = Model()
static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with DeviceGraphContext(g):
    y = model(static_x)
    total = static_x.sum().item()  # expected-error {{sync-tensor-read}}

h = torch.cuda.CUDAGraph()
with Capturing(h):
    peak = static_x.max().item()  # expected-error {{sync-tensor-read}}
