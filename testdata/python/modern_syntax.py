# Python 3.8-3.13 syntax: walrus, match, async, decorators, nested f-strings, type parameters.
import functools
from dataclasses import dataclass

import torch

type Pair[T] = tuple[T, T]


def identity[T](value: T) -> T:
    return value


@dataclass
class Config:
    mode: str = "fast"


def traced(fn):
    @functools.wraps(fn)
    def inner(*args, **kwargs):
        return fn(*args, **kwargs)

    return inner


@traced
def body(x: torch.Tensor, cfg: Config):
    match cfg.mode:
        case "fast":
            y = x * 2
        case "exact" | "slow":
            y = x.double()
        case _:
            y = x
    if (n := x.sum()) > 0:  # expected-error {{data-dependent-branch}}
        y = y + n
    label = f"{'outer' + f'{cfg.mode!r:>10}'}"
    return y


async def fetch(q):
    async with q as item:
        return await item


class Limited:
    def __init__(self):
        self.limit = torch.ones(1, device="cuda")
        # Declared after the store: an annotated assignment with no value.
        self.limit: torch.Tensor

    def clip(self, x):
        return x * self.limit.item()  # expected-error {{sync-tensor-read}}


static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = body(static_x, Config())
    clipped = Limited().clip(static_x)
    items = [v async for v in fetch(None)] if False else []
