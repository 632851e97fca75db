# expected-no-diagnostics
# Flags that rule code out: a benchmark helper captures only for the
# callers passing backend="cudagraph" (or use_cuda_graph=True), through
# however many helpers hand the flag on, and a branch for another mode never
# runs under the capture.
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


def _timed(fn, use_cuda_graph):
    if use_cuda_graph:
        return _cudagraph_bench(fn)
    return fn()


def bench_gpu_time(fn, use_cuda_graph=False):
    return _timed(fn, use_cuda_graph=use_cuda_graph)


def run_eager():
    torch.cuda.synchronize()


def run_eager_timed():
    torch.cuda.synchronize()


def run_graphed():
    torch.relu(torch.ones(4, device="cuda"))


def attention(q, impl):
    if impl == "reference":
        return q[q > 0]
    if impl not in ("fused", "tiled"):
        torch.cuda.synchronize()
    return q * 2


def forward(q):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        attention(q, "tiled")
        attention(q, impl="fused")
    return g


def main(q):
    do_bench(run_eager)
    do_bench(run_eager, backend="event")
    do_bench(run_graphed, backend="cudagraph")
    bench_gpu_time(run_eager_timed)
    bench_gpu_time(run_eager_timed, use_cuda_graph=False)
    bench_gpu_time(run_graphed, use_cuda_graph=True)
    forward(q)
