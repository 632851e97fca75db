# A part the constructor picks when its argument is missing (`storage=None`
# made a default storage by an if, a conditional expression, `or`, or a
# helper that returns its argument or a default), and parts a base class
# stores from what a subclass hands on through `**kwargs`: the capture runs
# the default part of the object it captures, built without the argument.
import torch


class Storage:
    def get(self, i):
        return i


class PinnedStorage(Storage):
    def get(self, i):
        return i + 1


class ListStorage(Storage):
    def get(self, i):
        return i.item()  # expected-error {{sync-tensor-read}}


class HostStorage(Storage):
    def get(self, i):
        return int(i.sum().item())  # expected-error {{sync-tensor-read}}


class Sampler:
    def sample(self, i):
        return i


class ShuffleSampler(Sampler):
    def sample(self, i):
        return i[torch.randperm(i.numel(), device=i.device)]


class RandomSampler(Sampler):
    def sample(self, i):
        return i.nonzero()  # expected-error {{data-dependent-shape}}


def make_sampler(sampler):
    if sampler is None:
        return RandomSampler()
    return sampler


class Buffer:
    def __init__(self, storage=None, sampler=None, writer=None):
        if storage is None:
            storage = ListStorage()
        self._storage = storage
        self._sampler = make_sampler(sampler)
        self._writer = writer or HostStorage()

    def sample(self, i):
        return self._writer.get(self._sampler.sample(self._storage.get(i)))


class KeyedBuffer(Buffer):
    def __init__(self, *, key="td", **kwargs):
        super().__init__(**kwargs)
        self.key = key


def capture_defaults(x):
    buf = Buffer()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.sample(x)
    return g, y


def capture_through_kwargs(x):
    buf = KeyedBuffer(key="priority")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.sample(x)
    return g, y


def run_given_parts_eagerly(x):
    return Buffer(PinnedStorage(), ShuffleSampler(), PinnedStorage()).sample(x)
