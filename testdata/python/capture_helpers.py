# Captures opened through a project's own helpers: a generator context
# manager that yields inside `torch.cuda.graph`, and an accelerator method
# that returns one. Helpers that look alike but capture nothing are not
# regions, whatever their names.
import contextlib

import torch


@contextlib.contextmanager
def graphed(graph, pool=None):
    with torch.cuda.graph(graph, pool=pool):
        yield graph


@contextlib.contextmanager
def timed_region(name):
    # no capture: the yield is outside any graph
    yield name


class CudaAccelerator:
    def create_graph(self):
        return torch.cuda.CUDAGraph()

    def capture_to_graph(self, graph, pool=None, stream=None):
        return torch.cuda.graph(graph, pool, stream)


class CpuAccelerator:
    def capture_to_graph(self, graph, pool=None, stream=None):
        return contextlib.nullcontext()


x = torch.randn(8, device="cuda")
g1 = torch.cuda.CUDAGraph()
with graphed(g1):
    total = x.sum().item()  # expected-error {{sync-tensor-read}}

with timed_region("eager"):
    eager_total = x.sum().item()

acc = CudaAccelerator()
g2 = acc.create_graph()
with acc.capture_to_graph(g2):
    host = x.cpu()  # expected-error {{sync-device-to-host-copy}}

cpu = CpuAccelerator()
with cpu.capture_to_graph(None):
    host_copy = x.cpu()
