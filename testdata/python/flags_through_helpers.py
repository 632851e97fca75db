# A backend or mode named by a string (`backend="cudagraph"`) or a flag
# picks the code a call runs: the capture runs what the callers choosing it
# pass, through the helpers handing it on, and a branch its string selects is
# captured code.
import torch


def _cudagraph_bench(fn):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    return g


def _bench_impl(fn, backend):
    if backend == "event":
        return fn()
    elif backend == "cudagraph":
        return _cudagraph_bench(fn)


def do_bench(fn, backend="event"):
    return _bench_impl(fn, backend=backend)


def run_graphed():
    torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}


def attention(q, impl):
    if impl == "reference":
        return q.softmax(-1)
    if impl != "fused":
        return q[q > 0]  # expected-error {{boolean-mask-indexing}}
    return q * 2


def forward(q):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        attention(q, "tiled")
    return g


def main(q):
    do_bench(run_graphed, backend="cudagraph")
    forward(q)
