# The unsafe twins of closure_state_ok.py: a closure changing `nonlocal`
# state of a function whose frame outlives the capture (the function begins
# the capture itself, or made the closure before and hands it over).
import torch


def count_steps(model, x, replays):
    steps = 0

    def bump(y):
        nonlocal steps
        steps += 1  # expected-warning {{host-state-mutation}}
        return y

    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        bump(model(x))
    for _ in range(replays):
        g.replay()
    return steps


def make_recorder():
    seen = None

    def record(y):
        nonlocal seen
        seen = [] if seen is None else seen
        seen.append(y.shape)  # expected-warning {{host-state-mutation}}
        return y

    return record


def capture_with(model, x):
    record = make_recorder()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        record(model(x))
    return g


def bench(fn, iters):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    for _ in range(iters):
        g.replay()


# The benchmark's frame holds the capture and every replay: its rotating
# index moves once, at capture, and replays keep reading one buffer.
def bench_rotating(buffers):
    index = 0

    def step():
        nonlocal index
        buffers[index % len(buffers)].mul_(2)
        index += 1  # expected-warning {{host-state-mutation}}

    bench(step, 10)
