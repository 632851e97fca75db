# expected-no-diagnostics
# A flag the constructor sets and the captured method tests on self: the
# object the capture runs on was built here (directly, by a factory, or
# handed down), and nothing on the way turned the flag on. Profiling code
# behind it never runs under this capture.
import torch


class Layer(torch.nn.Module):
    def __init__(self, profile=False):
        super().__init__()
        self.enable_timing = False
        self.profile = profile
        self.weight = torch.nn.Parameter(torch.ones(4))

    def _timed(self, x):
        if self.profile:
            torch.cuda.synchronize()
        return x

    def forward(self, x):
        if not self.enable_timing:
            return self._timed(x * self.weight)
        start = torch.cuda.Event(enable_timing=True)
        start.record()
        torch.cuda.synchronize()
        return x


def make_layer():
    return Layer()


def run_layer(layer, x):
    return layer(x)


def capture_direct(x):
    layer = Layer()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = layer(x)
        z = layer.forward(x)
    return g, y, z


def capture_factory(x):
    layer = make_layer()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = run_layer(layer, x)
    return g, y
