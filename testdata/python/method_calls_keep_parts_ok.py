# expected-no-diagnostics
# A method called on the object before its capture changes only what that
# object's class stores: the buffer's own `refill` keeps its sampler, and the
# `refill` of an unrelated class that swaps in a host-side sampler is not the
# one that runs (method_calls_keep_parts.py has a buffer whose own refill
# swaps it).
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
    def __init__(self, sampler):
        self._sampler = sampler
        self._count = 0

    def refill(self, x):
        self._count += 1

    def sample(self, x):
        return self._sampler.sample(x)


class Replayer:
    def __init__(self):
        self._sampler = DeviceSampler()

    def refill(self, x):
        self._reload()

    def _reload(self):
        self._sampler = HostSampler()


def capture_after_refill(x):
    buf = Buffer(DeviceSampler())
    buf.refill(x)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.sample(x)
    return g, y


def run_host_eagerly(x):
    r = Replayer()
    r.refill(x)
    return Buffer(HostSampler()).sample(x)
