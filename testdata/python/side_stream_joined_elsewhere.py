# A side stream forked in one method and never waited on by any method of
# the class: the capture ends with the stream unjoined. A join on another
# stored stream does not count for this one.
import torch


class BucketSync:
    def __init__(self):
        self.comm_streams = [torch.cuda.Stream() for _ in range(2)]
        self.copy_stream = torch.cuda.Stream()

    def start_sync(self, grads, i):
        main = torch.cuda.current_stream()
        comm = self.comm_streams[i % 2]
        comm.wait_stream(main)
        with torch.cuda.stream(comm):  # expected-error {{fork-not-joined}}
            grads.mul_(0.5)

    def finish_copy(self):
        torch.cuda.current_stream().wait_stream(self.copy_stream)

    def step(self, grads):
        self.start_sync(grads, 1)
        self.finish_copy()


def capture(sync: BucketSync, grads):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        sync.step(grads)
    return g


class OverlapLost:
    # The local side stream is handed to another attribute than the one
    # finish() joins: nothing joins it.
    def __init__(self):
        self.side = torch.cuda.Stream()
        self.active = None
        self.last = None

    def start(self, x):
        stream = self.side
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):  # expected-error {{fork-not-joined}}
            x.mul_(2)
        self.last = stream

    def finish(self):
        if self.active is not None:
            torch.cuda.current_stream().wait_stream(self.active)


def capture_overlap(overlap: OverlapLost, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        overlap.start(x)
        overlap.finish()
    return g
