# A factory helper hands back the object it is given when that is already
# one of its kind, builds a default for None and calls a callable: the buffer
# built with a SyncSampler() samples with that sampler, through the
# constructor, a method it calls on self and the helper's callable test
# (which a SyncSampler, defining no __call__, cannot pass).
import abc

import torch


class Sampler(abc.ABC):
    def sample(self, n):
        return torch.arange(n, device="cuda")


class RandomSampler(Sampler):
    def sample(self, n):
        return torch.randint(0, n, (n,), device="cuda")


class SyncSampler(Sampler):
    def sample(self, n):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return torch.arange(n, device="cuda")


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


def main():
    buf = Buffer(sampler=SyncSampler())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        buf.sample(8)
