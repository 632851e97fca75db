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
