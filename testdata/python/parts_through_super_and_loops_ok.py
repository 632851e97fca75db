# expected-no-diagnostics
# The same buffers captured as built with a device-side sampler: the host
# sampler other buffers are built with never runs under these captures,
# whether the capture reaches the sampler through `super().sample()` in a
# subclass or through a loop over the buffer (parts_through_super_and_loops.py
# captures it).
import torch


class Sampler:
    def sample(self, i):
        return i


class DeviceSampler(Sampler):
    def sample(self, i):
        return i * 2


class HostSampler(Sampler):
    def sample(self, i):
        return i.item()


class Buffer:
    def __init__(self, *, sampler=None, batch_size=None):
        self._sampler = sampler
        self._batch_size = batch_size

    def _sample(self, n):
        return self._sampler.sample(n)

    def sample(self, batch_size=None):
        return self._sample(batch_size)

    def __iter__(self):
        while True:
            yield self.sample()


class KeyedBuffer(Buffer):
    def __init__(self, *, key="td", **kwargs):
        super().__init__(**kwargs)
        self.key = key

    def sample(self, batch_size=None):
        return super().sample(batch_size)


def capture_through_super(x):
    buf = KeyedBuffer(sampler=DeviceSampler(), batch_size=4)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.sample()
    return g, y


def capture_loop(x):
    buf = KeyedBuffer(sampler=DeviceSampler(), batch_size=4)

    def update(x):
        for batch in buf:
            x = x + batch
        return x

    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = update(x)
    return g, y


def run_on_host_eagerly(x):
    return Buffer(sampler=HostSampler()).sample(x)
