# expected-no-diagnostics
# Fork and join around the side stream's work, as the PyTorch docs show.
import torch

side = torch.cuda.Stream()
static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        a = static_x * 2
    torch.cuda.current_stream().wait_stream(side)
    static_y = a + static_x
# Warm-up on a side stream outside capture needs nothing.
with torch.cuda.stream(side):
    static_x.add_(0)

# The fork as the block's first statement (test_cuda.py's spelling), and a
# join through the capturing stream's own handle.
s0 = torch.cuda.Stream()
s1 = torch.cuda.Stream()
g2 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g2, stream=s0):
    with torch.cuda.stream(s1):
        s1.wait_stream(s0)
        b = static_x * 3
    with torch.cuda.stream(s0):  # the capturing stream itself, not a side stream
        s0.wait_stream(s1)
        static_z = b + 1

# capture_begin() and capture_end() in two blocks on the capturing stream.
g3 = torch.cuda.CUDAGraph()
with torch.cuda.stream(s0):
    g3.capture_begin()
    c = static_x * 4
    with torch.cuda.stream(s1):
        torch.cuda.current_stream().wait_stream(s0)
        d = c + 1
    s0.wait_stream(s1)
with torch.cuda.stream(s0):
    g3.capture_end()


# A module's own auxiliary stream, forked and joined inside forward.
class TwoTower(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.aux_stream = torch.cuda.Stream()
        self.left = torch.nn.Linear(8, 8)
        self.right = torch.nn.Linear(8, 8)

    def forward(self, x):
        self.aux_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.aux_stream):
            r = self.right(x)
        torch.cuda.current_stream().wait_stream(self.aux_stream)
        return self.left(x) + r


towers = TwoTower().cuda()
g4 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g4):
    out = towers(static_x)


# Forks by event: the side stream waits on an event the capturing stream
# recorded, or on an async collective it launched (`work.wait()` opening
# the block); joined by an event the capturing stream waits on.
class EventForked(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.stream = torch.cuda.Stream()
        self.ready = torch.cuda.Event()
        self.done = torch.cuda.Event()
        self.lin = torch.nn.Linear(8, 8)

    def forward(self, x, work):
        self.ready.record()
        self.ready.wait(self.stream)
        with torch.cuda.stream(self.stream):
            y = self.lin(x)
            self.done.record()
        self.done.wait()
        with torch.cuda.stream(self.stream):
            for w in work:
                w.wait()
            z = y * 2
        torch.cuda.current_stream().wait_stream(self.stream)
        return z


forked = EventForked().cuda()
g5 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g5):
    out5 = forked(static_x, [])


# Streams taken from a list by a computed index, as ring attention pairs the
# capturing stream with a side one: `streams[i % 2]` may be either, so a
# fork or a join spelled through another index of the same list, or through
# the side stream the list was built from, stands for it.
def ring_steps(x, side, steps):
    streams = [torch.cuda.current_stream(), side]
    side.wait_stream(torch.cuda.current_stream())
    outs = []
    for i in range(steps):
        with torch.cuda.stream(streams[i % 2]):
            outs.append(x * i)
        if i > 0:
            streams[i % 2].wait_stream(streams[(i - 1) % 2])
    torch.cuda.current_stream().wait_stream(streams[1])
    return outs


g6 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g6):
    out6 = ring_steps(static_x, torch.cuda.Stream(), 4)


# The same launcher shape, handed the current stream (the capturing one) by
# every caller, directly or through a local, as a wrapper's `run()` does.
def launch_on(x, run_stream):
    with torch.cuda.stream(run_stream):
        return x * 5


def run(x):
    run_stream = torch.cuda.current_stream(x.device)
    return launch_on(x, run_stream)


def run_passing_on(x, stream):
    return launch_on(x, stream)


g7 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g7):
    out7 = run(static_x)
    out7 = launch_on(static_x, torch.cuda.current_stream())
    out7 = run_passing_on(static_x, torch.cuda.current_stream())


def local_current(x):
    s = torch.cuda.current_stream()
    with torch.cuda.stream(s):
        return x * 6


g8 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g8):
    out8 = local_current(static_x)


# The caller forks the stream it hands in from its current stream and joins
# it after the call: the launcher's work, through a function picked by a
# setting too, is part of the capture.
def gather_on(x, stream):
    with torch.cuda.stream(stream):
        return x * 6


def pick_gather(x, stream, method="pull"):
    fn = gather_on if method == "pull" else launch_on
    return fn(x, stream)


def dispatch_forked(x, ctx):
    current = torch.cuda.current_stream()
    ctx.side.wait_stream(current)
    out = pick_gather(x, ctx.side)
    current.wait_stream(ctx.side)
    return out


class Ctx:
    def __init__(self):
        self.side = torch.cuda.Stream()


g8 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g8):
    out8 = dispatch_forked(static_x, Ctx())


# A stream parameter that stands in for None: the callers that pass none
# run on the capturing stream.
def signal(x, stream=None):
    stream = stream if stream is not None else torch.cuda.current_stream()
    with torch.cuda.stream(stream):
        return x * 7


def signal_or(x, stream=None):
    s = stream or torch.cuda.current_stream()
    with torch.cuda.stream(s):
        return x * 8


g9 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g9):
    out9 = signal(static_x)
    out9 = signal(static_x, None)
    out9 = signal_or(static_x)


# A stream picked between a side stream and the current one: forked and
# joined as the side stream.
def gemm_on(x, ctx):
    current = torch.cuda.current_stream()
    if ctx.side is not None:
        ctx.side.wait_stream(current)
    stream = ctx.side if ctx.side else torch.cuda.current_stream()
    with torch.cuda.stream(stream):
        y = x * 9
    if ctx.side is not None:
        current.wait_stream(ctx.side)
    return y


g10 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g10):
    out10 = gemm_on(static_x, Ctx())


# Every stream of a list forked and joined in loops, and the launch made by a
# closure that the function defining it calls between the two.
def gather_all(x, ctx):
    current = torch.cuda.current_stream()
    for s in ctx.streams:
        s.wait_stream(current)

    def call_gather():
        return gather_on(x, ctx.streams[0])

    out = call_gather()
    for s in ctx.streams:
        current.wait_stream(s)
    return out


class Streams:
    def __init__(self):
        self.streams = [torch.cuda.Stream(), torch.cuda.Stream()]


g11 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g11):
    out11 = gather_all(static_x, Streams())
