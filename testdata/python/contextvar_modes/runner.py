# The capture sets is_prefill=True first: the prefill branches, which read
# lengths on the host, run under it, also where the context object is handed
# on to a helper that tests it. Contrast: contextvar_modes_ok/.
import torch

from context import get_context, set_context


def attend(x, lengths):
    context = get_context()
    if context.is_prefill:
        x = x[: int(lengths.max().item())]  # expected-error {{sync-tensor-read}}
    return fallback(x, lengths, context)


# The context object handed on: its attributes are the mode's.
def fallback(x, lengths, context):
    if context.is_prefill:
        return x[: int(lengths.sum().item())]  # expected-error {{sync-tensor-read}}
    return x * 3


def capture_decode(x, lengths):
    graph = torch.cuda.CUDAGraph()
    try:
        set_context(is_prefill=True)
        with torch.cuda.graph(graph):
            out = attend(x, lengths)
    except RuntimeError:
        out = None
    return graph, out
