# expected-no-diagnostics
# The forward context's tested attribute is false in every capture: set by
# a setter before the capture (also inside the loop over batch sizes that
# captures one graph each), by the object's default, or by a context
# manager around it. The prefill path's host reads never run under capture.
from contextlib import contextmanager
from dataclasses import dataclass

import torch


@dataclass(slots=True)
class Context:
    is_prefill: bool = False
    cu_seqlens: torch.Tensor | None = None
    context_lens: torch.Tensor | None = None


_CONTEXT = Context()


def get_context():
    return _CONTEXT


def set_context(is_prefill, cu_seqlens=None, context_lens=None):
    global _CONTEXT
    _CONTEXT = Context(is_prefill, cu_seqlens, context_lens)


def reset_context():
    global _CONTEXT
    _CONTEXT = Context()


class Attention(torch.nn.Module):
    def forward(self, q):
        context = get_context()
        if context.is_prefill:
            max_len = int(context.cu_seqlens.diff().max().item())
            return q[:max_len]
        return q * 2


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Attention()

    def forward(self, q):
        return self.attn(q)


class Runner:
    def __init__(self):
        self.model = Model()
        self.graphs = {}

    def capture(self):
        lens = torch.zeros(64, dtype=torch.int32, device="cuda")
        q = torch.zeros(64, 8, device="cuda")
        pool = None
        for bs in (64, 32, 16, 8):
            graph = torch.cuda.CUDAGraph()
            set_context(False, context_lens=lens[:bs])
            self.model(q[:bs])
            with torch.cuda.graph(graph, pool):
                self.model(q[:bs])
            if pool is None:
                pool = graph.pool()
            self.graphs[bs] = graph
            reset_context()

    def capture_default(self):
        reset_context()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            self.model(torch.zeros(8, 8, device="cuda"))
        return graph


@dataclass
class ForwardState:
    is_prefill: bool


_FORWARD = ForwardState(False)


@contextmanager
def forward_state(is_prefill):
    global _FORWARD
    prev = _FORWARD
    _FORWARD = ForwardState(is_prefill)
    try:
        yield
    finally:
        _FORWARD = prev


class Mixer(torch.nn.Module):
    def forward(self, x):
        if _FORWARD.is_prefill:
            print(x.sum().item())
        return x + 1


mixer = Mixer()
x = torch.randn(8, 4, device="cuda")
g = torch.cuda.CUDAGraph()
with forward_state(False), torch.cuda.graph(g):
    mixer(x)
