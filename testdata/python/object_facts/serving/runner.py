# expected-no-diagnostics
# Captures whose state objects are not known to be in decode mode: a caller
# that does not test the input, a method that may change the attribute, a
# flag computed at run time, a partial that binds the state first, an
# attribute reassigned before its test, a capture one chain reaches for a
# prefill input, a second caller the assert does not rule out, a list with
# one prefill input appended, the prefill element of a returned tuple.
import dataclasses
import functools

import torch

from serving.rows import rows_a, rows_b, rows_c, rows_d, rows_e, rows_f, rows_g, rows_h, rows_i


class State:
    def __init__(self):
        self.is_prefill = None
        self.warm = False

    def reset(self):
        self.warm = True


def make_state(inp, flag=False):
    state = State()
    state.is_prefill = inp.is_prefill
    state.flag = flag
    return state


def capture(fn, x, state):
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fn(x, state)
    return graph, out


def decode_a(inp):
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = rows_a(inp.ids, make_state(inp))
    return graph, out


def forward_a(inp):
    if inp.is_prefill:
        return None
    return decode_a(inp)


def warm_a(inp):
    # Not under `else:`: the input may be a prefill.
    return decode_a(inp)


def forward_b(inp):
    if not inp.is_prefill:
        state = make_state(inp)
        state.reset()
        return capture(rows_b, inp.ids, state)


def forward_c(inp):
    if not inp.is_prefill:
        return capture(rows_c, inp.ids, make_state(inp, inp.ids.numel() > 4))


def forward_d(inp, prefill_inp):
    if not inp.is_prefill:
        fn = functools.partial(rows_d, make_state(prefill_inp))
        return capture_d(fn, make_state(inp))


def capture_d(fn, state):
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        # rows_d(<the prefill state>, state): the partial moves the
        # arguments along, so what `state` holds says nothing of rows_d's.
        out = fn(state)
    return graph, out


def forward_e(inp):
    if not inp.is_prefill:
        return capture(rows_e, inp.ids, make_state(inp))


def capture_f(inp):
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = rows_f(inp.ids, make_state(inp))
    return graph, out


def forward_f(inp):
    if inp.is_prefill:
        return capture_f(inp)
    return capture_f(inp)


def capture_g(x, state, state1=None):
    assert state1 is None
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = rows_g(x, state)
    return graph, out


def forward_g(inp):
    if not inp.is_prefill:
        return capture_g(inp.ids, make_state(inp))


def overlap_g(inp0, inp1):
    return capture_g(inp0.ids, make_state(inp0), state1=None)


@dataclasses.dataclass
class Input:
    ids: torch.Tensor
    is_prefill: bool = False


def capture_h(inp):
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = rows_h(inp.ids, make_state(inp))
    return graph, out


def warmup_h(ids):
    batches = []
    batches.append(Input(ids))
    batches.append(Input(ids, is_prefill=True))
    return capture_h(batches[0])


def pair_i(ids):
    return Input(ids), Input(ids, True)


def capture_i(inp):
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = rows_i(inp.ids, make_state(inp))
    return graph, out


def warmup_i(ids):
    _, second = pair_i(ids)
    return capture_i(second)
