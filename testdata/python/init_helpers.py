# Parts the methods __init__ calls on self store, and setters some code
# names, still reach the capture when they may hold the host-side part: a
# default the helper makes when no storage was given; a subclass whose own
# `_init` stores another; a setter called on the buffer through another
# object that holds it; a setter named only by a name built at run time
# (`"configure_" + kind`); a sampler swapped in after `if n is None: return`
# when a count was given. Each case has its own classes, so that each line
# below is reached by its case alone (init_helpers_ok.py has the safe ones).
import os

import torch

CONSUMING = os.environ.get("CONSUMING") == "1"


class Storage:
    def get(self, i):
        return i


class DeviceStorage(Storage):
    def get(self, i):
        return i * 2


class DefaultHostStorage(Storage):
    def get(self, i):
        return i.item()  # expected-error {{sync-tensor-read}}


class OverrideStorage(Storage):
    def get(self, i):
        return i.item()  # expected-error {{sync-tensor-read}}


class Buffer:
    def __init__(self, storage=None):
        self._init_storage = storage
        self._init()

    def _init(self):
        self._storage = self._maybe_make(self._init_storage)

    def _maybe_make(self, storage):
        if storage is None:
            return DefaultHostStorage()
        return storage

    def sample(self, x):
        return self._storage.get(x)


class ReloadingBuffer(Buffer):
    def _init(self):
        self._storage = OverrideStorage()


def capture_default(x):
    buf = Buffer()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.sample(x)
    return g, y


def capture_subclass(x):
    buf = ReloadingBuffer(DeviceStorage())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.sample(x)
    return g, y


class Reader:
    def read(self, i):
        return i


class DeviceReader(Reader):
    def read(self, i):
        return i * 2


class SwappedHostReader(Reader):
    def read(self, i):
        return i.item()  # expected-error {{sync-tensor-read}}


class Settable:
    def __init__(self, reader):
        self._reader = reader

    def use_host(self):
        self._reader = SwappedHostReader()

    def sample(self, x):
        return self._reader.read(x)


class Holder:
    buf = None


def swap(holder):
    holder.buf.use_host()


def capture_swapped(x, holder):
    buf = Settable(DeviceReader())
    holder.buf = buf
    swap(holder)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.sample(x)
    return g, y


class Loader:
    def load(self, i):
        return i


class DeviceLoader(Loader):
    def load(self, i):
        return i * 2


class ConfiguredHostLoader(Loader):
    def load(self, i):
        return i.item()  # expected-error {{sync-tensor-read}}


class Configurable:
    def __init__(self, loader):
        self._loader = loader

    def configure_host(self):
        self._loader = ConfiguredHostLoader()

    def sample(self, x):
        return self._loader.load(x)


def reconfigure(holder, kind):
    getattr(holder.buf, "configure_" + kind)()


def capture_configured(x, holder):
    buf = Configurable(DeviceLoader())
    holder.buf = buf
    reconfigure(holder, "host")
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
        return i.item()  # expected-error {{sync-tensor-read}}


class ConsumingBuffer:
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


def capture_with_count(x):
    buf = ConsumingBuffer(DeviceSampler(), consume_after=3)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.draw(x)
    return g, y


class Picker:
    def pick(self, i):
        return i


class HostPicker(Picker):
    def pick(self, i):
        return i.item()  # expected-error {{sync-tensor-read}}


class QuietPicker(Picker):
    def pick(self, i):
        return i * 2


class GuardedBuffer:
    # The picker another method swaps in under a test leaves the given one
    # where the test fails, which a count given does not rule out here (the
    # environment decides too): the given host picker may run.
    def __init__(self, picker, consume_after=None):
        self._init_picker = picker
        self._init_consume_after = consume_after
        self._init()

    def _init(self):
        self._picker = self._init_picker
        self._maybe_consuming()

    def _maybe_consuming(self):
        if self._init_consume_after is None or not CONSUMING:
            return
        self._picker = QuietPicker()

    def pick(self, x):
        return self._picker.pick(x)


def capture_given_picker(x):
    buf = GuardedBuffer(HostPicker(), consume_after=3)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = buf.pick(x)
    return g, y


class Reducer:
    def reduce(self, i):
        return i


class HostReducer(Reducer):
    def reduce(self, i):
        return i.item()  # expected-error {{sync-tensor-read}}


class QuietReducer(Reducer):
    def reduce(self, i):
        return i * 2


class MaybeSwapped:
    # `_swap()` runs only where the environment asks: the reducer given stays
    # otherwise.
    def __init__(self, reducer):
        self._reducer = reducer
        if CONSUMING:
            self._swap()

    def _swap(self):
        self._reducer = QuietReducer()

    def reduce(self, x):
        return self._reducer.reduce(x)


def capture_maybe_swapped(x):
    m = MaybeSwapped(HostReducer())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = m.reduce(x)
    return g, y


class Merger:
    def merge(self, i):
        return i


class HostMerger(Merger):
    def merge(self, i):
        return i.item()  # expected-error {{sync-tensor-read}}


class QuietMerger(Merger):
    def merge(self, i):
        return i * 2


class NestedSwap:
    # The guarded swap sits one call further down: `_init()` calls it, and
    # the merger given may stay all the same.
    def __init__(self, merger):
        self._merger = merger
        self._init()

    def _init(self):
        self._maybe_swap()

    def _maybe_swap(self):
        if not CONSUMING:
            return
        self._merger = QuietMerger()

    def merge(self, x):
        return self._merger.merge(x)


def capture_nested_swap(x):
    m = NestedSwap(HostMerger())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = m.merge(x)
    return g, y
