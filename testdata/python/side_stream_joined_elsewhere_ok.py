# expected-no-diagnostics
# A class that starts a collective on a side stream in one method and joins
# it in another (start_sync forks; finish_sync waits on every stream it may
# have picked), both under the caller's capture, the way bucketed optimizers
# split a reduce-scatter's start from its finish.
import torch


class BucketSync:
    def __init__(self):
        self.comm_streams = [torch.cuda.Stream() for _ in range(2)]
        self.last = 0

    def start_sync(self, grads):
        main = torch.cuda.current_stream()
        comm = self.comm_streams[self.last % len(self.comm_streams)]
        comm.wait_stream(main)
        with torch.cuda.stream(comm):
            grads.mul_(0.5)

    def finish_sync(self):
        main = torch.cuda.current_stream()
        for comm in self.comm_streams:
            main.wait_stream(comm)

    def step(self, grads):
        self.start_sync(grads)
        self.finish_sync()


def capture(sync: BucketSync, grads):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        sync.step(grads)
    return g


class SharedExpertOverlap:
    # The side stream picked into a local, used, and handed to the object
    # at the end of start(); finish() joins it through the attribute.
    def __init__(self):
        self.side = torch.cuda.Stream()
        self.active = None
        self.out = None

    def start(self, x):
        stream = self.side
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            self.out = x * 2
        self.active = stream

    def finish(self):
        if self.active is not None:
            torch.cuda.current_stream().wait_stream(self.active)
        return self.out


def capture_overlap(overlap: SharedExpertOverlap, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        overlap.start(x)
        y = overlap.finish()
    return g, y
