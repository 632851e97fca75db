import torch

from . import modes
from .modes import is_fast_mode_enabled


def unpermute(tokens, probs, mask):
    fast = is_fast_mode_enabled()
    if fast:
        return tokens * probs
    return tokens * probs.masked_select(mask).sum()  # expected-error {{data-dependent-shape}}


def scale(x):
    if not is_fast_mode_enabled():
        print("slow path", x.shape)  # expected-warning {{host-io-in-capture}}
    return x * 2


def route(x):
    if is_fast_mode_enabled():
        return x
    return x[x.nonzero()]  # expected-error {{data-dependent-shape}}


def norm(x):
    if modes.is_fast_mode_enabled():
        return x
    return x / x.norm().item()  # expected-error {{sync-tensor-read}}


def pick(x):
    if is_fast_mode_enabled():
        return x
    return x.unique()  # expected-error {{data-dependent-shape}}


def total(x):
    if not is_fast_mode_enabled():
        return x * x.sum().item()  # expected-error {{sync-tensor-read}}
    return x
