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
