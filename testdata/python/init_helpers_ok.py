# expected-no-diagnostics
# Parts stored by the methods __init__ calls on self, and setters nothing
# calls: the buffer's `_init()` stores the storage it was given (through a
# helper that makes a default only when none was), so its capture runs that
# storage alone; `set_storage`, which no code names, cannot put the host-side
# storage that another buffer is built with into it. A string that is a
# whole attribute name (`"_storage"`) names no setter, nor does a Ray actor's
# remote call (`actor.set_storage.remote(...)`); a sampler swapped in after
# `if n is None: return` does not reach a buffer built without a count.
# init_helpers.py has the cases where the other part does reach the capture.
import torch


class Storage:
    def get(self, i):
        return i


class DeviceStorage(Storage):
    def get(self, i):
        return i * 2


class HostStorage(Storage):
    def get(self, i):
        return i.item()


class Buffer:
    def __init__(self, storage=None):
        self._init_storage = storage
        self._init()

    def _init(self):
        self._storage = self._maybe_make(self._init_storage)
        self._count = 0

    def _maybe_make(self, storage):
        if storage is None:
            return DeviceStorage()
        return storage

    def set_storage(self, storage):
        self._storage = storage

    def sample(self, x):
        return self._storage.get(x)


def eager(x):
    b = Buffer(HostStorage())
    if getattr(b, "_storage", None) is not None:
        return b.sample(x)
    return x


def configure_remote(actor):
    # A Ray actor's method runs in the actor's process, on its own buffer.
    return actor.set_storage.remote(HostStorage())


def capture_given(x):
    buf = Buffer(DeviceStorage())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.sample(x)
    return g, y


def capture_default(x):
    buf = Buffer()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.sample(x)
    return g, y


class Sampler:
    def draw(self, i):
        return i


class DeviceSampler(Sampler):
    def draw(self, i):
        return i * 2


class ConsumingSampler(Sampler):
    def draw(self, i):
        return i.item()


class ConsumingBuffer:
    # The consuming sampler replaces the one given only when a count was
    # given: the store after `if n is None: return` does not always run.
    def __init__(self, sampler, consume_after=None):
        self._init_sampler = sampler
        self._init_consume_after = consume_after
        self._init()

    def _init(self):
        self._sampler = self._init_sampler
        n = self._init_consume_after
        if n is None:
            return
        self._sampler = ConsumingSampler()

    def draw(self, x):
        return self._sampler.draw(x)


def capture_without_count(x):
    buf = ConsumingBuffer(DeviceSampler())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.draw(x)
    return g, y
