# expected-no-diagnostics
# The captured buffer is built with a QuietSampler(): the helper hands that
# back, and neither its None branch nor its callable() branch can run for
# it. The SyncSampler() another buffer is built with is never captured, and
# neither is the default.
import abc

import torch


class Sampler(abc.ABC):
    def sample(self, n):
        return torch.arange(n, device="cuda")


class RandomSampler(Sampler):
    def sample(self, n):
        return torch.randint(0, n, (n,), device="cuda").nonzero()


class SyncSampler(Sampler):
    def sample(self, n):
        torch.cuda.synchronize()
        return torch.arange(n, device="cuda")


class QuietSampler(Sampler):
    def sample(self, n):
        return torch.arange(n, device="cuda") * 2


class Buffer:
    def __init__(self, sampler=None):
        self._init_sampler = sampler
        self._init()

    def _init(self):
        self._sampler = self._make_sampler(self._init_sampler)

    def _make_sampler(self, sampler):
        if sampler is None:
            return RandomSampler()
        elif isinstance(sampler, Sampler):
            return sampler
        elif callable(sampler):
            sampler = sampler()
        if not isinstance(sampler, Sampler):
            raise TypeError("sampler must be a Sampler or a callable returning one")
        return sampler

    def sample(self, n):
        return self._sampler.sample(n)


def eager():
    return Buffer(sampler=SyncSampler()).sample(4), Buffer().sample(4)


def main():
    buf = Buffer(sampler=QuietSampler())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        buf.sample(8)
