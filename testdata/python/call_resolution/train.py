# Calls resolved by Python's semantics: imports, values, containers,
# decorators, library functions and receivers. Each capture pairs a call
# that must be followed with a namesake or a dead path that must not.
import functools
import inspect
import operator
import threading

import torch

from proj.ops import *
from proj import ops
from proj.optim import Fused, Legacy, run_step

x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()


def timed(fn):
    def wrapper(*args):
        return fn(*args)

    return wrapper


@timed
def quiet_step(v):
    return v + 1


@timed
def loud_step(v):
    return v.tolist()  # expected-error {{sync-tensor-read}}


def worker():
    torch.cuda.synchronize()  # no finding: runs on its own thread


def inspected(v):
    return v.item()  # no finding: only inspected, never called


def key_fn(v):
    return v.cpu()  # expected-error {{sync-device-to-host-copy}}


def apply(fn, v, *rest: int, **options: int):  # typed splats: no parameter names
    return fn(v)


def apply_twice(fn, v):
    return apply(fn, apply(fn, v))


def eager_only(v):
    return v.cpu()  # no finding: only an eager call hands it to apply


class A:
    def m(self, v):
        return v


class B(A):
    pass


class C(A):
    def m(self, v):
        return v.item()  # expected-error {{sync-tensor-read}}


class D(B, C):  # C3 order: D, B, C, A: C's m runs
    pass


with torch.cuda.graph(g):
    # functools is the standard library, not proj/compat/functools.py.
    total = functools.reduce(operator.add, [x, x])
    # A star import binds proj.ops' public names.
    y = scaled(x)
    # A literal index picks one element; the other is never called.
    handlers = [ops.clean, ops.syncing]
    y = handlers[0](y)
    table = {"fast": ops.clean, "slow": ops.other_syncing}
    table["slow"] = ops.clean  # overwritten before the call below
    y = table["slow"](y)
    # Tuple unpacking binds element by element.
    first, (second, third) = ops.clean, (ops.clean, ops.syncing)
    y = third(y)
    # What a function returns, called.
    stepper = ops.make_step("fast")
    y = stepper(y)
    # The decorator's wrapper calls the function decorated, per call.
    y = quiet_step(y)
    y = loud_step(y)
    # Library functions: some call what they are handed, some do not.
    t = threading.Thread(target=worker)
    later = functools.partial(ops.other_syncing, y)
    sig = inspect.signature(inspected)
    ordered = sorted([y, y], key=key_fn)
    # A callable parameter runs what this call passes, also handed on.
    y = apply_twice(ops.clean, y)
    # A receiver's class: the one the caller made.
    run_step(Fused())
    y = D().m(y)

eager = apply(eager_only, x)
