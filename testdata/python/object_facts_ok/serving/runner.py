# expected-no-diagnostics
# A decode capture shaped like a serving engine's: the state object is built
# from the model input by helpers (a copy with a padded batch, a new object
# with attributes copied over), its callable handed through two layers and
# a tuple of bound methods. `forward` only decodes under `else:` of
# `if inp.is_prefill:`; the overlap caller passes a second state, which the
# `assert` on the plain path rules out, and its inputs come from the serving
# loop and the warm-up in batching.py.
import copy

import torch

from serving.post import PostLayer


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
