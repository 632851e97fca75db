# A method called on the object before its capture may replace a part: here
# the buffer's own `refill`, through the `_reload` it calls on self, stores a
# host-side sampler, and the capture runs it.
import torch


class Sampler:
    def sample(self, i):
        return i


class DeviceSampler(Sampler):
    def sample(self, i):
        return i * 2


class HostSampler(Sampler):
    def sample(self, i):
        return i.item()  # expected-error {{sync-tensor-read}}


class Buffer:
    def __init__(self, sampler):
        self._sampler = sampler
        self._count = 0

    def refill(self, x):
        self._count += 1
        self._reload()

    def _reload(self):
        self._sampler = HostSampler()

    def sample(self, x):
        return self._sampler.sample(x)


def capture_after_refill(x):
    buf = Buffer(DeviceSampler())
    buf.refill(x)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.sample(x)
    return g, y
