# expected-no-diagnostics
# The same buffers, captured as built with every part given: the default
# parts their constructors pick for a missing argument (an if, a conditional
# expression, `or`, a helper returning its argument or a default, a base
# class reached through `**kwargs`) are other objects' and never run here
# (parts_by_default.py captures them).
import torch


class Storage:
    def get(self, i):
        return i


class PinnedStorage(Storage):
    def get(self, i):
        return i + 1


class ListStorage(Storage):
    def get(self, i):
        return i.item()


class HostStorage(Storage):
    def get(self, i):
        return int(i.sum().item())


class Sampler:
    def sample(self, i):
        return i


class ShuffleSampler(Sampler):
    def sample(self, i):
        return i[torch.randperm(i.numel(), device=i.device)]


class RandomSampler(Sampler):
    def sample(self, i):
        return i.nonzero()


def make_sampler(sampler):
    if sampler is None:
        return RandomSampler()
    return sampler


def make_writer(writer=None, factory=None):
    if factory is not None:
        writer = factory()
    return writer if writer is not None else HostStorage()


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


class FactoryBuffer:
    def __init__(self, writer=None, factory=None):
        self._writer = make_writer(writer, factory)

    def sample(self, i):
        return self._writer.get(i)


def capture_given_parts(x):
    buf = Buffer(storage=PinnedStorage(), sampler=ShuffleSampler(), writer=PinnedStorage())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.sample(x)
    return g, y


def capture_given_through_kwargs(x):
    buf = KeyedBuffer(storage=PinnedStorage(), sampler=ShuffleSampler(), writer=PinnedStorage())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.sample(x)
    return g, y


def capture_without_factory(x):
    buf = FactoryBuffer(writer=PinnedStorage())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.sample(x)
    return g, y


def run_defaults_eagerly(x):
    return Buffer().sample(x), KeyedBuffer().sample(x), FactoryBuffer().sample(x)
