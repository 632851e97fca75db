# The callables a flag-gated capture runs are those of the callers that set
# the flag, directly or through a helper that hands its own flag and
# callable on; each one's sync is reported.
import torch


def bench_with_graph(fn, iters=3):
    def call_fn():
        fn()

    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(iters):
            call_fn()
    return g


def bench(fn, use_cuda_graph=False):
    if use_cuda_graph:
        return bench_with_graph(fn)
    fn()


def bench_graphed(fn):
    return bench(fn, use_cuda_graph=True)


def syncing():
    torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}


def reads_back(x):
    return x.sum().item()  # expected-error {{sync-tensor-read}}


def main(x, graphs):
    bench(syncing, use_cuda_graph=True)
    bench_graphed(lambda: reads_back(x))
