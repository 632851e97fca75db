# expected-no-diagnostics
# A benchmark helper captures the callable it is handed only when a flag
# says so; the callables handed to it without the flag run eagerly. Joining
# every caller's callable into the capture reported the eager ones.
import torch


def bench_with_graph(fn, iters=3):
    def call_fn():
        fn()

    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(iters):
            call_fn()
    return g


def bench(fn, use_cuda_graph=False, repeat=10):
    if use_cuda_graph:
        return bench_with_graph(fn)
    for _ in range(repeat):
        fn()


def timed(fn, label):
    return bench(fn, repeat=5)


def syncing():
    torch.cuda.synchronize()


def reads_back(x):
    return x.sum().item()


def fine(x):
    return x * 2


def main(x):
    bench(syncing)
    bench(lambda: reads_back(x), use_cuda_graph=False)
    timed(lambda: reads_back(x), "eager, through another helper")
    bench(lambda: fine(x), use_cuda_graph=True)
