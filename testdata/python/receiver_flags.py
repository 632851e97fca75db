# receiver_flags_ok.py's layer where the flag may be on: set by the caller,
# by a constructor argument, by a method called first, or on an object the
# capture cannot see built.
import torch


class Layer(torch.nn.Module):
    def __init__(self, profile=False):
        super().__init__()
        self.enable_timing = False
        self.profile = profile

    def turn_on_timing(self):
        self.enable_timing = True

    def _timed(self, x):
        if self.profile:
            torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x

    def forward(self, x):
        if not self.enable_timing:
            return self._timed(x * 2)
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


def capture_timed(x):
    layer = Layer()
    layer.enable_timing = True
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = layer(x)
    return g, y


def capture_profiled(x):
    layer = Layer(profile=True)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = layer(x)
    return g, y


def capture_after_method(x):
    layer = Layer()
    layer.turn_on_timing()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = layer(x)
    return g, y


def capture_handed(layer: Layer, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = layer(x)
    return g, y
