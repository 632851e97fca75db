# expected-no-diagnostics
# A benchmark's step is a closure over the configuration's flags; the
# single-run (profiling) path runs it eagerly and returns, the timed path
# hands it to a helper that captures it. Under that capture the flags hold
# what the path to the hand-over left them.
import torch


def bench_with_graph(fn, iters=3):
    def call_fn():
        fn()

    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(iters):
            call_fn()
    return g


def benchmark_config(x, single_run=False, check=None):
    def execute():
        y = x * 2
        if single_run:
            torch.cuda.synchronize()
        if check is not None:
            print("checked", check.sum().item())
        return y

    if single_run:
        execute()
        return None
    if check is not None:
        execute()
        return None
    return bench_with_graph(execute)


def other_config(x, i):
    def step():
        return x + i

    return bench_with_graph(step)


def main(x):
    for i in range(4):
        other_config(x, i)
    benchmark_config(x, single_run=True)
    benchmark_config(x)


# A closure passes its enclosing function's constants on: bound once, to a
# literal (also by unpacking a tuple of literals), they fill the callee's
# optional parameters, whose inference path never runs.
def decode(query, lens=None, max_len=None):
    if lens is not None and max_len is None:
        max_len = int(lens.max().item())
    return query


def test_ragged_replay(query, lens):
    batch, max_len = 4, 8
    capped = 8

    def launch():
        decode(query, lens=lens, max_len=max_len)
        return decode(query, lens, capped)

    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        launch()
    return g, batch
