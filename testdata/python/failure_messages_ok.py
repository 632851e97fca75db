# expected-no-diagnostics
# Tensors formatted into, or read for, the message of an exception raised,
# or of an assert that fails, or logged just before a raise: built only
# where the code fails anyway, never by a replay.
import logging

import torch

logger = logging.getLogger(__name__)
MODULES = {}


def get_module(name, x):
    full_name = name + "_" + str(x.dtype)
    if full_name not in MODULES:
        print(f"Module {full_name} not found")
        logger.error("available: %s, got %s", list(MODULES), x.sum().item())
        raise ValueError(f"Module {full_name} not found")
    return MODULES[full_name]


def attention(q, lengths_q=None, lengths_kv=None):
    if (lengths_q is None) ^ (lengths_kv is None):
        raise ValueError(f"both lengths or neither, got {lengths_q=}, {lengths_kv=}.")
    assert q.dim() == 3, f"expected a 3-d query, got {q}"
    assert q.numel() > 0, q.tolist()
    if q.dim() > 3:
        raise ValueError("too many dims: " + str(q.sum().item()))
    get_module("softmax", q)
    return q.softmax(-1)


static_q = torch.randn(2, 4, 4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_out = attention(static_q)
