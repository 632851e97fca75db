# closure_flags_ok.py's benchmark where the captured closure's flag is not
# settled on the way to the capture: still reported.
import torch


def bench_with_graph(fn):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    return g


def unguarded_config(x, single_run=False):
    def execute():
        if single_run:
            torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x * 2

    return bench_with_graph(execute)


def guarded_once(x, single_run=False, warm=False):
    def execute():
        if single_run:
            torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x * 2

    if warm:
        bench_with_graph(execute)
    if single_run:
        return None
    return bench_with_graph(execute)


def rebound_flag(x, single_run=False):
    def execute():
        if single_run:
            torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x * 2

    if single_run:
        return None
    single_run = True
    return bench_with_graph(execute)


def main(x):
    unguarded_config(x, single_run=True)
    guarded_once(x, single_run=True, warm=True)
    rebound_flag(x)


# The constant a closure passes is rebound before the capture (by the
# closure's own `nonlocal`, or a second binding): unknown, still reported.
def decode(query, lens=None, max_len=None):
    if lens is not None and max_len is None:
        max_len = int(lens.max().item())  # expected-error {{sync-tensor-read}}
    return query


def decode_twice(query, lens=None, max_len=None):
    if lens is not None and max_len is None:
        lens.cpu()  # expected-error {{sync-device-to-host-copy}}
    return query


def test_rebound(query, lens):
    max_len = 8

    def reset():
        nonlocal max_len
        max_len = None

    def launch():
        return decode(query, lens=lens, max_len=max_len)

    reset()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        launch()
    return g


def test_bound_twice(query, lens, ragged):
    limit = 8
    if ragged:
        limit = None

    def launch():
        return decode_twice(query, lens, limit)

    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        launch()
    return g
