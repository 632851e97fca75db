# expected-no-diagnostics
# One capture function, two callers: the decode step passes an input known
# not to be a prefill; the overlap step passes a second state, which the
# capture function's `assert` rules out, so its unknown first input never
# reaches the capture.
import torch

from serving.batching import Input


def rows(x, state):
    if state.is_prefill:
        torch.cuda.synchronize()
    return x


def capture_step(x, state, state1=None):
    assert state1 is None, "the overlap step captures elsewhere"
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = rows(x, state)
    return graph, out


def decode_step(inp):
    if not inp.is_prefill:
        return capture_step(inp.ids, inp)
    return None


def overlap_step(inp0, inp1):
    second = Input(inp1.ids, inp1.batch_size, inp1.seq_lens)
    return capture_step(inp0.ids, inp0, state1=second)
