# local_flags_ok.py's flags where the caller lets a true binding run, where
# the flag is set true unconditionally on some path, or where a loop target
# binds it: still reported.
import torch


class Batch:
    def __init__(self, data=None, device=None, non_blocking=None):
        call_sync = False
        if device is not None:
            call_sync = non_blocking is None
        if call_sync:
            torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}


def gather(x, to_host=None, force=False):
    needs_copy = False
    if to_host is not None:
        needs_copy = True
    elif force:
        needs_copy = True
    if needs_copy:
        return x.cpu()  # expected-error {{sync-device-to-host-copy}}
    return x


def scan(x, flags):
    hit = False
    for hit in flags:
        pass
    if hit:
        print(x.sum().item())  # expected-error {{sync-tensor-read}} expected-warning {{host-io-in-capture}}
    return x


def step(x, device):
    Batch(x, device=device)
    gather(x, force=True)
    scan(x, [False, True])


def capture(x, device):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        step(x, device)
    return g
