# Host effects and syncs on a path that goes on to a raise are not reported
# (failure_messages_ok.py); these paths do not end in the failure: a try
# around them takes the path back, or the block can leave before the raise.
import logging

import torch

logger = logging.getLogger(__name__)


def lookup(table, name, x):
    try:
        if name not in table:
            print(f"missing {name}")  # expected-warning {{host-io-in-capture}}
            raise KeyError(name)
    except KeyError:
        return x
    return table[name](x)


def fallback(x, strict):
    if x.dim() > 2:
        logger.warning("flattening %s", x.shape)  # expected-warning {{host-io-in-capture}}
        if not strict:
            return x.flatten()
        raise ValueError("too many dims")
    return x


def step(x, table):
    y = lookup(table, "relu", x)
    return fallback(y, False)


static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    out = step(static_x, {})
