# Captures the fast mode does not cover: none around it, the mode turned off,
# a mode that follows a computed value, an inner block turning it off again.
import torch

from kernels.modes import (
    disable_fast_mode,
    enable_fast_mode,
    is_fast_mode_enabled,
    maybe_fast,
    set_fast_mode,
)
from kernels.ops import norm, pick, route, scale, total, unpermute

tokens = torch.randn(6, 8, device="cuda")
probs = torch.rand(6, 8, device="cuda")
mask = probs > 0.5

g1 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g1):
    out1 = unpermute(tokens, probs, mask)

g2 = torch.cuda.CUDAGraph()
with set_fast_mode(False):
    with torch.cuda.graph(g2):
        out2 = scale(tokens)

g3 = torch.cuda.CUDAGraph()
with maybe_fast(tokens.shape[0] > 4):
    with torch.cuda.graph(g3):
        out3 = route(tokens)

g4 = torch.cuda.CUDAGraph()
with set_fast_mode(True):
    with set_fast_mode(False), torch.cuda.graph(g4):
        out4 = norm(tokens)


def capture(fn, x):
    # One caller sets the mode around the call, the other does not.
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fn(x)
        if not is_fast_mode_enabled():
            out = out + x.sum().item()  # expected-error {{sync-tensor-read}}
    return graph, out


with set_fast_mode(True):
    g5, out5 = capture(torch.relu, tokens)
g6, out6 = capture(torch.relu, tokens)


def capture_after_toggle(x, warm):
    # On only when the caller asked, or turned off again before the capture.
    if warm:
        enable_fast_mode()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = pick(x)
    enable_fast_mode()
    disable_fast_mode()
    other = torch.cuda.CUDAGraph()
    with torch.cuda.graph(other):
        out = total(x)
    return other, out
