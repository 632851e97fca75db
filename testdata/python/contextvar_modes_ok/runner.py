# expected-no-diagnostics
# The decode capture sets is_prefill=False first: the prefill branches, which
# read lengths on the host, never run under it, also where the context object
# is handed on to a helper that tests it.
import torch

from context import get_context, set_context


def attend(x, lengths):
    context = get_context()
    if context.is_prefill:
        return x[: int(lengths.max().item())]
    return fallback(x, lengths, context)


# The context object handed on: its attributes are the mode's.
def fallback(x, lengths, context):
    if context.is_prefill:
        return x[: int(lengths.sum().item())]
    return x * 3


def capture_decode(x, lengths):
    graph = torch.cuda.CUDAGraph()
    try:
        set_context(is_prefill=False)
        with torch.cuda.graph(graph):
            out = attend(x, lengths)
    except RuntimeError:
        out = None
    return graph, out
