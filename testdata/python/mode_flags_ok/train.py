# expected-no-diagnostics
# Every capture runs inside the mode its code tests for, so the slow paths
# (a data-dependent shape, a print, a host read) never run under capture:
# the mode turned on with a literal, by default, on a mode already on, and a
# flag read directly in its module.
import torch

from kernels.modes import (
    checked_sum,
    deterministic,
    enable_fast_mode,
    is_fast_mode_enabled,
    set_fast_mode,
)
from kernels.ops import norm, scale, unpermute

tokens = torch.randn(6, 8, device="cuda")
probs = torch.rand(6, 8, device="cuda")
mask = probs > 0.5


def step():
    return scale(unpermute(tokens, probs, mask))


g1 = torch.cuda.CUDAGraph()
with torch.no_grad(), set_fast_mode(True):
    with torch.cuda.graph(g1):
        out1 = step()

g2 = torch.cuda.CUDAGraph()
with set_fast_mode():
    with set_fast_mode(True), torch.cuda.graph(g2):
        out2 = norm(tokens)

g3 = torch.cuda.CUDAGraph()
with deterministic():
    with torch.cuda.graph(g3):
        out3 = checked_sum(tokens)


def capture(fn, x):
    # The mode is set by every caller of this function, around the call.
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fn(x)
        if not is_fast_mode_enabled():
            out = out + x.sum().item()
    return graph, out


with set_fast_mode(True):
    g4, out4 = capture(scale, tokens)
with deterministic(), set_fast_mode():
    g5, out5 = capture(norm, tokens)


def capture_after_enable(x):
    # A plain call before the capture turns the mode on; so does one taken
    # only when it was off.
    enable_fast_mode()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = norm(x)
    return graph, out


def capture_if_off(x):
    if not is_fast_mode_enabled():
        enable_fast_mode()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = scale(x)
    return graph, out
