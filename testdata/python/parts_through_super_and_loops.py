# The parts of the object captured stay known where its methods reach them
# through `super().m()` in a subclass and through a loop over the object
# (its __iter__): the buffers captured here were built with a host-side
# sampler, and the capture runs it.
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
    buf = KeyedBuffer(sampler=HostSampler(), batch_size=4)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.sample()
    return g, y


def capture_loop(x):
    buf = Buffer(sampler=HostSampler(), batch_size=4)

    def update(x):
        for batch in buf:
            x = x + batch
        return x

    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = update(x)
    return g, y


def run_on_device_eagerly(x):
    return Buffer(sampler=DeviceSampler()).sample(x)
