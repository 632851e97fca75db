# The lifecycle rules when begin, end or a second capture sit in callees or
# in a second call of the same function: a capture a helper begins under
# another one, a graph object captured again by a second call, a raise
# between a begin helper and an end helper, a begin and its end on
# different streams. The safe twins below must stay quiet.
import torch

model = torch.nn.Linear(8, 8).cuda()
x = torch.randn(4, 8, device="cuda")


# make_graphed_callables called by a helper the captured step calls.
def graph_it(m, sample):
    return torch.cuda.make_graphed_callables(m, (sample,))  # expected-error {{nested-capture}}


def step(m, sample):
    fast = graph_it(m, sample)
    return fast(sample)


outer = torch.cuda.CUDAGraph()
with torch.cuda.graph(outer):
    out = step(model, x)


# A runner whose capture method is called twice on one object.
class Runner:
    def __init__(self):
        self.graph = torch.cuda.CUDAGraph()

    def capture(self, inp):
        with torch.cuda.graph(self.graph):
            return model(inp)


runner = Runner()
runner.capture(x)
runner.capture(x)  # expected-error {{capture-begin-twice}}


def capture_into(graph, fn):
    with torch.cuda.graph(graph):
        fn()


g2 = torch.cuda.CUDAGraph()
capture_into(g2, lambda: model(x))
capture_into(g2, lambda: model(x))  # expected-error {{capture-begin-twice}}

g3 = torch.cuda.CUDAGraph()
for _ in range(3):
    capture_into(g3, lambda: model(x))  # expected-error {{capture-begin-twice}}


# Begin and end in helpers; the code between them is the caller's region.
def begin(graph):
    graph.capture_begin()


def finish(graph):
    torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    graph.capture_end()


def checked(graph, n):
    begin(graph)  # expected-warning {{throw-leaves-capture-open}}
    y = model(x)
    if n <= 0:
        raise ValueError("empty batch")
    total = y.sum().item()  # expected-error {{sync-tensor-read}}
    finish(graph)
    return y, total


def begin_on(graph, stream):
    with torch.cuda.stream(stream):
        graph.capture_begin()


def on_side(graph):
    side = torch.cuda.Stream()
    begin_on(graph, side)
    y = model(x)
    graph.capture_end()  # expected-error {{capture-end-other-stream}}
    return y


def on_side_direct(graph, side):
    with torch.cuda.stream(side):
        graph.capture_begin()
    y = model(x)
    graph.capture_end()  # expected-error {{capture-end-other-stream}}
    return y


# --- Safe twins ---------------------------------------------------------

# A helper of the project named like PyTorch's: not a capture.
def make_graphed_callables(fn, sample_args):
    return fn


def eager_step(m, sample):
    fast = make_graphed_callables(m, (sample,))
    return fast(sample)


with torch.cuda.graph(torch.cuda.CUDAGraph()):
    out2 = eager_step(model, x)


# Graphing only when no capture is under way.
def maybe_graph(m, sample):
    if torch.cuda.is_current_stream_capturing():
        return m
    return torch.cuda.make_graphed_callables(m, (sample,))


with torch.cuda.graph(torch.cuda.CUDAGraph()):
    out3 = maybe_graph(model, x)(x)


# Reset between the captures, a new graph per call, a runner that makes its
# graph before each capture, one capture per branch.
g4 = torch.cuda.CUDAGraph()
capture_into(g4, lambda: model(x))
g4.reset()
capture_into(g4, lambda: model(x))

capture_into(torch.cuda.CUDAGraph(), lambda: model(x))
capture_into(torch.cuda.CUDAGraph(), lambda: model(x))


class FreshRunner:
    def capture(self, inp):
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            return model(inp)


fresh = FreshRunner()
fresh.capture(x)
fresh.capture(x)

other = Runner()
if x.is_cuda:
    other.capture(x)
else:
    other.capture(x.cuda())

graphs = {}
for bs in (1, 2, 4):
    graphs[bs] = torch.cuda.CUDAGraph()
    capture_into(graphs[bs], lambda: model(x[:bs]))


# Begin and end in helpers, both on one side stream.
def both_on_side(graph, side):
    with torch.cuda.stream(side):
        begin(graph)
        y = model(x)
        graph.capture_end()
    return y


def guarded_end(graph):
    try:
        begin(graph)
        y = model(x)
        if y is None:
            raise RuntimeError("no output")
    finally:
        graph.capture_end()
    return y


# The loop binds a new graph object each pass, however nested its target.
pairs = [(torch.cuda.CUDAGraph(), model) for _ in range(2)]
for i, (graph_i, fn_i) in enumerate(pairs):
    with torch.cuda.graph(graph_i):
        fn_i(x)
for i, (graph_j, fn_j) in enumerate(pairs):
    capture_into(graph_j, lambda: fn_j(x))
