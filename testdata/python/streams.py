# Side streams in capture need a fork (wait on the capturing stream) and a join.
import torch

side = torch.cuda.Stream()
other = torch.cuda.Stream()
static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    with torch.cuda.stream(side):  # expected-error {{side-stream-without-fork}}
        a = static_x * 2
    other.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(other):  # expected-error {{fork-not-joined}}
        b = static_x + 1

# A wait after the block's own work is not a fork.
s0 = torch.cuda.Stream()
g2 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g2, stream=s0):
    with torch.cuda.stream(side):  # expected-error {{side-stream-without-fork}}
        c = static_x * 3
        side.wait_stream(s0)
    s0.wait_stream(side)


# A module's own auxiliary stream, used in forward without a fork: the capture
# that calls forward fails.
class TwoTower(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.aux_stream = torch.cuda.Stream()
        self.left = torch.nn.Linear(8, 8)
        self.right = torch.nn.Linear(8, 8)

    def forward(self, x):
        with torch.cuda.stream(self.aux_stream):  # expected-error {{side-stream-without-fork}}
            r = self.right(x)
        torch.cuda.current_stream().wait_stream(self.aux_stream)
        return self.left(x) + r


towers = TwoTower().cuda()
g3 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g3):
    out = towers(static_x)


# A computed index into a list of side streams: no element waits on the
# capture (the capturing stream in the list forks nothing), or none is
# waited on.
def ring_unforked(x, side, steps):
    streams = [torch.cuda.current_stream(), side]
    outs = []
    for i in range(steps):
        with torch.cuda.stream(streams[i % 2]):  # expected-error {{side-stream-without-fork}}
            outs.append(x * i)
    torch.cuda.current_stream().wait_stream(streams[1])
    return outs


def ring_unjoined(x, pool, steps):
    outs = []
    for i in range(steps):
        pool[i].wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(pool[i]):  # expected-error {{fork-not-joined}}
            outs.append(x * i)
    return outs


g4 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g4):
    out4 = ring_unforked(static_x, torch.cuda.Stream(), 4)
    out4 = ring_unjoined(static_x, [torch.cuda.Stream(), torch.cuda.Stream()], 2)


# A launcher that runs on the stream its caller hands in: a side stream made
# by the caller and never forked from the capturing stream fails the capture.
def launch_on(x, run_stream):
    with torch.cuda.stream(run_stream):  # expected-error {{side-stream-without-fork}}
        return x * 5


g7 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g7):
    out7 = launch_on(static_x, torch.cuda.Stream())


# Forked before the call but never joined after it, or joined without the
# fork: the launcher's stream is still a side stream of the capture.
def gather_on(x, stream):
    with torch.cuda.stream(stream):  # expected-error {{side-stream-without-fork}}
        return x * 6


def dispatch_unjoined(x, side):
    side.wait_stream(torch.cuda.current_stream())
    return gather_on(x, side)


def dispatch_unforked(x, side):
    out = gather_on(x, side)
    torch.cuda.current_stream().wait_stream(side)
    return out


g8 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g8):
    out8 = dispatch_unjoined(static_x, torch.cuda.Stream())
    out8 = dispatch_unforked(static_x, torch.cuda.Stream())


# The same launcher handed a new stream: a side stream never forked.
def signal(x, stream=None):
    stream = stream if stream is not None else torch.cuda.current_stream()
    with torch.cuda.stream(stream):  # expected-error {{side-stream-without-fork}}
        return x * 7


g9 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g9):
    out9 = signal(static_x, torch.cuda.Stream())


class Ctx:
    def __init__(self):
        self.side = torch.cuda.Stream()


def gemm_unforked(x, ctx):
    stream = ctx.side if ctx.side else torch.cuda.current_stream()
    with torch.cuda.stream(stream):  # expected-error {{side-stream-without-fork}}
        return x * 9


g10 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g10):
    out10 = gemm_unforked(static_x, Ctx())


# The closure is also called before the fork: that call's stream is a side
# stream of the capture.
def launch_list(x, stream):
    with torch.cuda.stream(stream):  # expected-error {{side-stream-without-fork}}
        return x * 10


def gather_some(x, ctx):
    current = torch.cuda.current_stream()

    def call_gather():
        return launch_list(x, ctx.streams[0])

    early = call_gather()
    for s in ctx.streams:
        s.wait_stream(current)
    out = call_gather()
    for s in ctx.streams:
        current.wait_stream(s)
    return early, out


class Streams:
    def __init__(self):
        self.streams = [torch.cuda.Stream(), torch.cuda.Stream()]


g11 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g11):
    out11 = gather_some(static_x, Streams())
