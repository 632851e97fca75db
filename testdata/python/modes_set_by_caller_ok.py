# expected-no-diagnostics
# The mode the captured code tests is set by the caller of the function that
# holds the capture, through a helper of its own, before it calls it: the
# prefill branch never runs in the decode capture.
import torch


class Context:
    def __init__(self, is_prefill=True):
        self.is_prefill = is_prefill


_CONTEXT = Context()


def get_context():
    return _CONTEXT


def set_context(is_prefill):
    global _CONTEXT
    _CONTEXT = Context(is_prefill)


class Attention(torch.nn.Module):
    def forward(self, x):
        context = get_context()
        if context.is_prefill:
            n = x.max().item()
            return x[:n]
        return x * 2


class DecodeRunner:
    def __init__(self):
        self.attn = Attention()
        self.graph = None

    def _prepare(self, x):
        set_context(False)
        return x

    def _capture(self, x):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            y = self.attn(x)
        return g

    def run(self, x):
        x = self._prepare(x)
        if self.graph is None:
            self.graph = self._capture(x)
        self.graph.replay()
