# expected-no-diagnostics
# A module constant switches debug output off: `if not DEBUG: return` leaves
# every call before the print, so nothing after it runs in any process.
import torch

DEBUG = False
DEBUG_RANK = 0


def debug_rank(message):
    if not DEBUG:
        return
    if torch.distributed.get_rank() == DEBUG_RANK:
        print(message)


def check_finite(x):
    if DEBUG:
        pass
    else:
        return x
    torch.cuda.synchronize()
    assert torch.isfinite(x).all().item()
    return x


def body(x):
    debug_rank("body")
    return check_finite(x * 2)


def step(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = body(x)
    return out
