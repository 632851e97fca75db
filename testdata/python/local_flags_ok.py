# expected-no-diagnostics
# A local flag that starts false and is set true only under a test of the
# parameters: where the caller's arguments rule that test out, the flag stays
# false and the work it guards never runs under the capture.
import torch


def flush_pending():
    torch.cuda.synchronize()


class Batch:
    def __init__(self, data=None, device=None, non_blocking=None):
        has_device = device is not None
        call_sync = False
        if has_device:
            if device.type == "cuda":
                call_sync = False
            else:
                call_sync = non_blocking is None
        self.data = data
        if call_sync:
            flush_pending()
            call_sync = False


def gather(x, to_host=None):
    needs_copy = False
    for _ in range(2):
        if to_host is not None:
            needs_copy = True
    if needs_copy:
        return x.cpu()
    return x


def step(x):
    batch = Batch(x)
    return gather(x), batch


def capture(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        step(x)
    return g
