# expected-no-diagnostics
# The same helpers, where what the captured calls hand them is safe: each
# call of a helper runs the callables that call passes, not what another call
# passes outside the capture, and a call leaving `*args` empty runs none.
import torch


def sync_hook(x):
    torch.cuda.synchronize()
    return x


def scale_hook(x):
    return x * 2


def run_all(x, hooks):
    for h in hooks:
        x = h(x)
    return x


def run_each(x, *hooks):
    for h in hooks:
        x = h(x)
    return x


def run_first(x, hooks):
    return hooks[0](x)


def handed_on(x, hooks):
    return run_all(x, hooks)


def main():
    x = torch.ones(4, device="cuda")
    run_all(x, [sync_hook])
    run_each(x, sync_hook)
    run_first(x, (sync_hook,))
    handed_on(x, [sync_hook])
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = run_all(x, [scale_hook])
        y = run_each(y)
        y = run_each(y, scale_hook)
        y = run_first(y, (scale_hook,))
        y = handed_on(y, [scale_hook])
