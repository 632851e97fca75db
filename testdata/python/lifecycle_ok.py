# expected-no-diagnostics
# Captures one after another, a graph per batch size, reset() before a second
# capture, and capture_begin()/capture_end() protected by try/finally.
import torch

model = torch.nn.Linear(8, 8).cuda()
static_x = torch.randn(4, 8, device="cuda")

first = torch.cuda.CUDAGraph()
second = torch.cuda.CUDAGraph()
with torch.cuda.graph(first):
    y = model(static_x)
with torch.cuda.graph(second, pool=first.pool()):
    z = model(y)

graphs = {}
for bs in (1, 2, 4):
    graphs[bs] = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graphs[bs]):
        out = model(static_x[:bs])

for bs in (1, 2):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = model(static_x[:bs])

again = torch.cuda.CUDAGraph()
with torch.cuda.graph(again):
    a = model(static_x)
again.reset()
with torch.cuda.graph(again):
    b = model(static_x)


def capture_checked(h, n):
    if n <= 0:
        raise ValueError("empty batch")
    h.capture_begin()
    try:
        out = model(static_x)
        assert out.dim() == 2
    finally:
        h.capture_end()
    return out


def maybe_capture(h):
    # Called under another capture, this helper leaves the capture to it.
    if torch.cuda.is_current_stream_capturing():
        return model(static_x)
    with torch.cuda.graph(h):
        return model(static_x)


with torch.cuda.graph(torch.cuda.CUDAGraph()):
    maybe_capture(torch.cuda.CUDAGraph())


def capture_maybe_pooled(graph, pool=None):
    # One capture or the other, never both (torch.cuda.CUDAGraph.capture_begin's own shape).
    if pool is None:
        graph.capture_begin()
    else:
        graph.capture_begin(pool=pool)


def capture_op(graph, fused):
    if fused:
        graph.capture_begin()
        out = model(static_x)
        graph.capture_end()
    else:
        graph.capture_begin()
        out = model(static_x) + 0
        graph.capture_end()
    return out


# A capture on one iteration of a loop (its index pinned by `==`), replays on
# the others.
def record_then_replay(batches, warmup):
    g = torch.cuda.CUDAGraph()
    for i in range(len(batches)):
        if i == 0:
            with torch.cuda.graph(g):
                model(batches[i])
        else:
            g.replay()
    h = torch.cuda.CUDAGraph()
    for step, batch in enumerate(batches):
        if step == warmup and batch is not None:
            with torch.cuda.graph(h):
                model(batch)
        elif step > warmup:
            h.replay()


class Generator:
    WARMUPS = 2

    # Warm-up steps eager, the one after them captured (an `elif` whose test
    # pins the step to an expression no step changes), later steps replayed.
    def generate(self, tokens, steps):
        graph = torch.cuda.CUDAGraph()
        for step in range(steps):
            if step <= self.WARMUPS:
                out = model(tokens)
            elif step == self.WARMUPS + 1:
                with torch.cuda.graph(graph):
                    out = model(tokens)
                graph.replay()
            else:
                graph.replay()
        return out
