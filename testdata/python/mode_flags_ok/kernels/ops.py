# expected-no-diagnostics
import torch

from . import modes
from .modes import is_fast_mode_enabled


def unpermute(tokens, probs, mask):
    fast = is_fast_mode_enabled()
    if fast:
        return tokens * probs
    return tokens * probs.masked_select(mask).sum()


def scale(x):
    if not is_fast_mode_enabled():
        print("slow path", x.shape)
    return x * 2


def norm(x):
    if modes.is_fast_mode_enabled():
        return x
    return x / x.norm().item()
