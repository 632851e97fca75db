# A decode capture shaped like a serving engine's: the state object is built
# from the model input by helpers (a copy with a padded batch, a new object
# with attributes copied over), its callable handed through two layers and
# a tuple of bound methods. `forward` only decodes under `else:` of
# `if inp.is_prefill:`; the overlap caller passes a second state, which the
# `assert` on the plain path rules out, and its inputs come from the serving
# loop and the warm-up in batching.py.
import copy

import torch



class State:
    def __init__(self):
        self.is_prefill = None
        self.healing = False
        self.trace = None

    def init_extra(self, model):
        self.positions = torch.arange(self.batch_size, device="cuda")


class Graphs:
    def __init__(self, overlap):
        self.overlap = overlap
        self.graphs = {}

    def capture_decode(self, decode_func, ids, state, ids1=None, state1=None):
        if self.overlap:
            return self._capture_pair(decode_func, ids, state, ids1, state1)
        assert ids1 is None and state1 is None
        return self._capture(decode_func, ids, state)

    def _capture(self, decode_func, ids, state):
        state.max_len = 64
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            if state.is_prefill:
                torch.cuda.synchronize()
            out = decode_func(ids, state)
        self.graphs[ids.shape[0]] = (graph, out)
        return out

    def _capture_pair(self, decode_func, ids, state, ids1, state1):
        # Entered from `_decode` too, where state1 is None: what runs on it
        # there would raise before reaching a sync.
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out, out1 = decode_func(ids, state, ids1, state1)
        self.graphs[ids.shape[0]] = (graph, out, out1)
        return out, out1


class Model:
    def __init__(self, split):
        self.post = PostLayer()
        self.graphs = Graphs(overlap=False)
        self.split = split

    def forward(self, inp):
        if inp.is_prefill:
            return self._prefill(inp)
        else:
            return self._decode(inp)

    def _make_state(self, inp, index=0):
        state = State()
        state.is_prefill = inp.is_prefill
        state.batch_size = inp.batch_size
        state.seq_lens = inp.seq_lens
        if inp.is_prefill:
            state.cached_lens = inp.cached_lens
        state.index = index
        return state

    def _pad(self, inp, size):
        if inp.batch_size == size:
            return inp
        padded = copy.copy(inp)
        padded.batch_size = size
        padded.ids = torch.nn.functional.pad(inp.ids, (0, size - inp.batch_size))
        return padded

    def _prefill(self, inp):
        return self._token_forward(inp.ids, self._make_state(inp))

    def _decode(self, inp):
        padded = self._pad(inp, 8)
        state = self._make_state(padded)
        state.is_cuda_graph = True
        state.init_extra(self)
        return self.graphs.capture_decode(self._token_forward, padded.ids, state)

    def overlap_decode(self, inp0, inp1):
        state0 = self._make_state(inp0, 0)
        state1 = self._make_state(inp1, 1)
        # The plain capture calls decode_func with two arguments: never this.
        return self.graphs.capture_decode(
            self._pair_forward, inp0.ids, state0, ids1=inp1.ids, state1=state1
        )

    def _pair_forward(self, ids, state, ids1, state1):
        return self._token_forward(ids, state), self._token_forward(ids1, state1)

    def _token_forward(self, ids, state):
        post = (self.post.token_forward, self.post.split_forward)[self.split]
        return post(ids, state)
# Decode inputs made by the serving loop and the warm-up: a dataclass whose
# `is_prefill` defaults to False, handed back in tuples and collected in a
# list.
import dataclasses

import torch



@dataclasses.dataclass
class Input:
    ids: torch.Tensor
    batch_size: int
    seq_lens: torch.Tensor
    is_prefill: bool = False
    cached_lens: torch.Tensor = None


def prepare_decode(reqs):
    ids = torch.tensor(reqs, device="cuda")
    return Input(ids=ids, batch_size=len(reqs), seq_lens=ids), len(reqs)


def prepare_pair(reqs):
    first, n0 = prepare_decode(reqs[: len(reqs) // 2])
    second, n1 = prepare_decode(reqs[len(reqs) // 2 :])
    return first, n0, second, n1


def serve(model: Model, reqs):
    first, _, second, _ = prepare_pair(reqs)
    return model.overlap_decode(first, second)


def warmup(model: Model, ids):
    batches = []
    for _ in range(2):
        batches.append(Input(ids, ids.shape[0], ids, is_prefill=False))
    return model.overlap_decode(batches[0], batches[1])
# Captures whose state objects are not known to be in decode mode: a caller
# that does not test the input, a method that may change the attribute, a
# flag computed at run time, a partial that binds the state first, an
# attribute reassigned before its test, a capture one chain reaches for a
# prefill input, a second caller the assert does not rule out, a list with
# one prefill input appended, the prefill element of a returned tuple.
import dataclasses
import functools

import torch



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
