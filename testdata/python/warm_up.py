# Code a capture reaches that ran before the capture began: the warm-up
# iterations make_graphed_callables runs, or the same call a function made
# before its own capture region. A lazy initialisation (`if self.x is None:
# self.x = ...`, `if not hasattr(self, "x"):`) took its branch then, not
# under capture. Without a warm-up the first call is the captured one.
import collections
import functools
from functools import lru_cache

import torch


class WarmedByHelper(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.threshold = None
        self.bias = None

    def forward(self, x):
        if self.threshold is None:
            self.threshold = torch.tensor([0.5], device="cuda")
            self.bias = torch.tensor([0.1], device="cuda")
        return x * self.threshold + self.bias


class WarmedByLoop(torch.nn.Module):
    def forward(self, x):
        if not hasattr(self, "scale"):
            self.scale = float(x.abs().max().item())
        return x * self.scale


class Cold(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.threshold = None

    def forward(self, x):
        if self.threshold is None:
            self.threshold = torch.tensor([0.5], device="cuda")  # expected-error {{sync-pageable-upload}}
        return x * self.threshold


class NotAnInitialisation(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.limit = None

    def forward(self, x):
        if self.limit is None:
            # limit stays None: every call, the captured one too, syncs.
            return x / x.max().item()  # expected-error {{sync-tensor-read}}
        return x / self.limit


class WarmedTooLate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.offset = None

    def forward(self, x):
        if self.offset is None:
            self.offset = x.mean().item()  # expected-error {{sync-tensor-read}}
        return x - self.offset


def graphed(x):
    return torch.cuda.make_graphed_callables(WarmedByHelper().cuda(), (x,))


def warm_then_capture(x):
    model = WarmedByLoop().cuda()
    guarded = NotAnInitialisation().cuda()
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            model(x)
            guarded(x)
    torch.cuda.current_stream().wait_stream(s)
    with torch.cuda.graph(g):
        y = model(x)
        z = guarded(x)
    return g, y, z


def capture_cold(x):
    model = Cold().cuda()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)
    return g, y


def capture_then_warm(x):
    model = WarmedTooLate().cuda()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)
    model(x)
    return g, y


class KeyedCache(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.key = None
        self.table = None

    def forward(self, x, mode="fast"):
        key = (x.shape, mode)
        if key != self.key:
            self.table = torch.tensor([1.0, 2.0], device="cuda")
            self.key = key
        if mode != self.key:
            # Compares against key, assigns nothing it tests: every call.
            print("mode", mode)  # expected-warning {{host-io-in-capture}}
        return x * self.table[0]


def graphed_cache(x):
    return torch.cuda.make_graphed_callables(KeyedCache().cuda(), (x,))


class Slot:
    def __init__(self):
        self.scale = None


class WinnerCache(torch.nn.Module):
    """A choice cached per input bucket in a dict: `cache.get(key)` then
    `if winner is None:`, or `if key not in cache:`, filled in the block."""

    def __init__(self):
        super().__init__()
        self._winners = {}
        self._plans = {}
        self._seen = {}
        self._slots = collections.defaultdict(Slot)

    def forward(self, x):
        bucket = x.shape[0]
        # A field of an object self keeps, filled on the miss.
        slot = self._slots[bucket]
        if slot.scale is None:
            slot.scale = x.abs().sum().item()
        winner = self._winners.get(bucket)
        if winner is None:
            winner = int(x.argmax().item())
            self._winners[bucket] = winner
        if bucket not in self._plans:
            self._plans[bucket] = x.abs().max().item()
        # The same dict through a local bound to it alone.
        plans = self._plans
        if -bucket not in plans:
            plans[-bucket] = x.abs().min().item()
        seen = self._seen.get(bucket)
        if seen is None:
            # Looks the cache up, never fills it: every call syncs.
            print("first", x.sum().item())  # expected-error {{sync-tensor-read}} expected-warning {{host-io-in-capture}}
        return x * winner


class ColdWinnerCache(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self._winners = {}

    def forward(self, x):
        winner = self._winners.get(x.shape[0])
        if winner is None:
            winner = int(x.argmax().item())  # expected-error {{sync-tensor-read}}
            self._winners[x.shape[0]] = winner
        return x * winner


def warm_cache_then_capture(x):
    model = WinnerCache().cuda()
    for _ in range(3):
        model(x)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)
    return g, y


def capture_cache_cold(x):
    model = ColdWinnerCache().cuda()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)
    return g, y


# A memoized builder runs its body on a miss only: the warm-up call with
# the same arguments took it. A plain function of the same body runs on
# every call.
@lru_cache(maxsize=None)
def compiled_plan(n):
    torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return n


@functools.cache
def cached_scale(n):
    return torch.ones(n, device="cuda").sum().item()


def uncached_scale(n):
    return torch.ones(n, device="cuda").sum().item()  # expected-error {{sync-tensor-read}}


def planned_step(x):
    return x * compiled_plan(x.shape[0]) * cached_scale(4)


def unplanned_step(x):
    return x * uncached_scale(4)


def memoized_warm(x):
    planned_step(x)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = planned_step(x)
        z = unplanned_step(x)
    return g, y, z


def memoized_cold(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = compiled_plan(x.shape[0])
    return g, y


# A wrapper that captures the step on its warm-up count's call and runs it
# eagerly on the calls before, while its graph is still None: the singleton
# the step builds on first use was built then.
class OffloadManager:
    INSTANCE = None

    @classmethod
    def get(cls):
        if cls.INSTANCE is None:
            cls.INSTANCE = OffloadManager()
        return cls.INSTANCE

    def __init__(self):
        print("offload manager ready")
        self.scale = 2.0


class LateManager:
    INSTANCE = None

    @classmethod
    def get(cls):
        if cls.INSTANCE is None:
            cls.INSTANCE = LateManager()
        return cls.INSTANCE

    def __init__(self):
        print("late manager ready")  # expected-warning {{host-io-in-capture}}
        self.scale = 2.0


def offloaded_step(x):
    return x * OffloadManager.get().scale


def late_step(x):
    return x * LateManager.get().scale


class CapturedOnWarmupCount:
    def __init__(self, warmup_steps):
        self.graph = None
        self.iteration = 0
        self.warmup_steps = warmup_steps
        self.out = None

    def __call__(self, x):
        if self.iteration == self.warmup_steps:
            self.graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.graph):
                self.out = offloaded_step(x)
        if self.graph is None:
            self.out = offloaded_step(x)
        else:
            self.graph.replay()
        self.iteration += 1
        return self.out


class EagerOnlyAfterCapture:
    """Runs the step eagerly only once the graph exists: nothing ran before
    the capture."""

    def __init__(self, warmup_steps):
        self.graph = None
        self.iteration = 0
        self.warmup_steps = warmup_steps
        self.out = None

    def __call__(self, x):
        if self.iteration == self.warmup_steps:
            self.graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.graph):
                self.out = late_step(x)
        if self.graph is not None:
            self.out = late_step(x)
        self.iteration += 1
        return self.out


class FirstManager:
    INSTANCE = None

    @classmethod
    def get(cls):
        if cls.INSTANCE is None:
            cls.INSTANCE = FirstManager()
        return cls.INSTANCE

    def __init__(self):
        print("first manager ready")  # expected-warning {{host-io-in-capture}}
        self.scale = 2.0


def first_step(x):
    return x * FirstManager.get().scale


class CapturedOnFirstCall:
    """Captures on the first call when enabled; the eager path is for runs
    with capture off, so nothing ran before the capture."""

    def __init__(self, enabled):
        self.graph = None
        self.enabled = enabled
        self.out = None

    def __call__(self, x):
        if self.graph is None and self.enabled:
            self.graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.graph):
                self.out = first_step(x)
        if self.graph is None:
            self.out = first_step(x)
        else:
            self.graph.replay()
        return self.out


def run_wrappers(x):
    warm, late, first = CapturedOnWarmupCount(3), EagerOnlyAfterCapture(3), CapturedOnFirstCall(True)
    for _ in range(5):
        warm(x)
        late(x)
        first(x)


# Caches kept in a dict of the module: the miss fills them, in the block
# (`if pool is None: ...; _POOLS[k] = pool`) or after a hit that returns
# (`if cached is not None: return cached`, `if k in _PLANS: return ...`).
# The warm-up took each miss; a cold capture, and a lookup that never fills
# its cache, still sync.
_POOLS = {}
_PREPARED = {}
_PLANS = {}
_LOOKED_UP = {}
_COLD = {}


def pool_for(x):
    pool = _POOLS.get(x.shape[0])
    if pool is None:
        pool = float(x.abs().max().item())
        _POOLS[x.shape[0]] = pool
    return pool


def prepared_for(x):
    cached = _PREPARED.get(x.shape[0])
    if cached is not None:
        return cached
    prepared = float(x.sum().item())
    _PREPARED[x.shape[0]] = prepared
    return prepared


def plan_for(x):
    if x.shape[0] in _PLANS:
        return _PLANS[x.shape[0]]
    _PLANS[x.shape[0]] = int(x.argmax().item())
    return _PLANS[x.shape[0]]


def looked_up(x):
    seen = _LOOKED_UP.get(x.shape[0])
    if seen is not None:
        return seen
    return float(x.min().item())  # expected-error {{sync-tensor-read}}


def cold_prepared(x):
    cached = _COLD.get(x.shape[0])
    if cached is not None:
        return cached
    prepared = float(x.mean().item())  # expected-error {{sync-tensor-read}}
    _COLD[x.shape[0]] = prepared
    return prepared


def cached_step(x):
    return x * pool_for(x) * prepared_for(x) * plan_for(x) * looked_up(x)


def module_caches_warm(x):
    cached_step(x)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = cached_step(x)
    return g, y


def module_cache_cold(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = x * cold_prepared(x)
    return g, y


# A boolean flag set in the block it guards (`if not self._ready: ...;
# self._ready = True`), alone or with other conditions the block also needs
# (`and`): the warm-up set it. Set to a false value, or under `or`, the
# block may run again.
class FlagWarmed(torch.nn.Module):
    def __init__(self, enabled):
        super().__init__()
        self._ready = False
        self._planned = False
        self.enabled = enabled

    def forward(self, x):
        if not self._ready and self.enabled:
            torch.cuda.synchronize()
            self._ready = True
        if self._planned:
            return x * 2
        print("planning", x.shape)
        self._planned = True
        return x


class FlagNeverSet(torch.nn.Module):
    def __init__(self, force):
        super().__init__()
        self._ready = False
        self.force = force

    def forward(self, x):
        if not self._ready:
            torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
            self._ready = False
        if not self._ready or self.force:
            print("forced", x.shape)  # expected-warning {{host-io-in-capture}}
            self._ready = True
        return x


class StoppedState(torch.nn.Module):
    """A flag set on one path of the code after its test: a state, not a
    record that the code ran."""

    def __init__(self):
        super().__init__()
        self._stopped = False
        self.count = 0

    def forward(self, x):
        if self._stopped:
            return x
        if x.shape[0] == 0:
            self._stopped = True
            return x
        self.count += 1  # expected-warning {{host-state-mutation}}
        return x


class FlagHitStays(torch.nn.Module):
    """The flag's hit does not leave: the code after it runs on every call."""

    def __init__(self):
        super().__init__()
        self.verbose = False

    def forward(self, x):
        if self.verbose:
            x = x * 2
        print("shape", x.shape)  # expected-warning {{host-io-in-capture}}
        self.verbose = True
        return x


class FlagCold(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self._ready = False

    def forward(self, x):
        if not self._ready:
            torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
            self._calls: int
            self._ready = True
        return x


def flags_warm_then_capture(x):
    model, never, stopped = FlagWarmed(True).cuda(), FlagNeverSet(False).cuda(), StoppedState()
    stays = FlagHitStays()
    for _ in range(3):
        model(x)
        never(x)
        stopped(x)
        stays(x)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)
        z = never(x)
        w = stopped(x)
        v = stays(x)
    return g, y, z, w, v


def flags_cold(x):
    model = FlagCold().cuda()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)
    return g, y
