# expected-no-diagnostics
# Context manager classes that do not leave a capture open for their body: a
# timer, and one that captures whole inside __enter__ (its body runs after).
import torch


class Timer:
    def __enter__(self):
        self.start = torch.cuda.Event(enable_timing=True)
        self.start.record()
        return self

    def __exit__(self, *args):
        torch.cuda.synchronize()


class CaptureOnEnter:
    def __init__(self, graph, fn, x):
        self.graph, self.fn, self.x = graph, fn, x

    def __enter__(self):
        self.graph.capture_begin()
        self.out = self.fn(self.x)
        self.graph.capture_end()
        return self

    def __exit__(self, *args):
        return False


static_x = torch.randn(8, device="cuda")
with Timer():
    total = static_x.sum().item()

g = torch.cuda.CUDAGraph()
with CaptureOnEnter(g, torch.relu, static_x) as c:
    c.graph.replay()
    peak = c.out.max().item()
