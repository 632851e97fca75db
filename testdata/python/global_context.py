# A serving engine's forward context: a module global object that a setter
# replaces before each capture and the captured layers read through a getter
# (`get_context().is_prefill`). Where the setter left the tested attribute
# true, or something replaced the object since, the branch runs under capture.
from contextlib import contextmanager
from dataclasses import dataclass

import torch


@dataclass
class StepContext:
    is_prefill: bool = False
    lengths: torch.Tensor | None = None


_STEP = StepContext()


def get_step():
    return _STEP


def set_step(is_prefill, lengths=None):
    global _STEP
    _STEP = StepContext(is_prefill, lengths)


def load_step(path):
    global _STEP
    _STEP = torch.load(path)


class Attention(torch.nn.Module):
    def forward(self, x):
        step = get_step()
        if step.is_prefill:
            n = int(step.lengths.max().item())  # expected-error {{sync-tensor-read}}
            return x[:n]
        return x * 2


class Replaced(torch.nn.Module):
    def forward(self, x):
        if get_step().is_prefill:
            return x * x.sum().item()  # expected-error {{sync-tensor-read}}
        return x


class Stored(torch.nn.Module):
    def forward(self, x):
        if get_step().is_prefill:
            return x * x.max().item()  # expected-error {{sync-tensor-read}}
        return x


class SecondRound(torch.nn.Module):
    def forward(self, x):
        if get_step().is_prefill:
            return x * x.min().item()  # expected-error {{sync-tensor-read}}
        return x


x = torch.randn(8, 4, device="cuda")
lengths = torch.ones(8, dtype=torch.int32, device="cuda")


def capture_prefill(attn):
    # The setter leaves the attribute true: the prefill path is captured.
    graph = torch.cuda.CUDAGraph()
    set_step(True, lengths)
    with torch.cuda.graph(graph):
        out = attn(x)
    return graph, out


def capture_after_replaced(layer, path):
    # The object was replaced by one nothing is known of.
    graphs = []
    for _ in range(2):
        set_step(False)
        load_step(path)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            layer(x)
        graphs.append(graph)
    return graphs


def capture_after_store(layer):
    # An attribute stored through the getter after the setter ran.
    set_step(False)
    get_step().is_prefill = True
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        layer(x)
    return graph


def capture_on_second_round(layer):
    # The first iteration captures in decode; the second after the loop's
    # end switched to prefill.
    set_step(False)
    graphs = []
    for _ in range(2):
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            layer(x)
        graphs.append(graph)
        set_step(True, lengths)
    return graphs


capture_prefill(Attention())
capture_after_replaced(Replaced(), "step.pt")
capture_after_store(Stored())
capture_on_second_round(SecondRound())


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
            print(x.sum().item())  # expected-error {{sync-tensor-read}} expected-warning {{host-io-in-capture}}
        return x + 1


mixer = Mixer()
g = torch.cuda.CUDAGraph()
with forward_state(True), torch.cuda.graph(g):
    mixer(x)
