# Code that runs only when the environment sets a variable is off in the
# runs users make by default: under capture it is at most a note. Reads that
# hold by default (a truthy default, a negated read) gate nothing.
import os

import torch

DEBUG_SYNC = os.environ.get("MYPROJ_DEBUG_SYNC") == "1"


def dump_stats(t):
    print("mean", t.mean().item())  # expected-note {{sync-tensor-read}} {{host-io-in-capture}}
    # CHECK-MESSAGES@-1: only when the environment sets MYPROJ_DUMP


def checked(t):
    if not os.getenv("MYPROJ_CHECK"):
        return t
    torch.cuda.synchronize()  # expected-note {{sync-device-synchronize}}
    return t


def validated(t):
    # Opt-in validation: returns early unless the variable is set.
    if os.environ.get("MYPROJ_VALIDATE", "0") in ("0", ""):
        return t
    if (t < 0).any().item():  # expected-note {{sync-tensor-read}}
        raise ValueError("negative")
    return t


def traced(t):
    if os.getenv("MYPROJ_TRACE", "off") != "on":
        return t
    print(t.sum().item())  # expected-note {{sync-tensor-read}} {{host-io-in-capture}}
    return t


def strict(t):
    # Returns early only when the variable is set: the rest runs by default.
    if os.environ.get("MYPROJ_LAX", "0") not in ("0", ""):
        return t
    torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return t


def step(x):
    y = strict(traced(validated(x * 2)))
    if os.environ.get("MYPROJ_DEBUG"):
        torch.cuda.synchronize()  # expected-note {{sync-device-synchronize}}
        # CHECK-MESSAGES@-1: only when the environment sets MYPROJ_DEBUG
    if DEBUG_SYNC:
        torch.cuda.synchronize()  # expected-note {{sync-device-synchronize}}
    if int(os.environ.get("MYPROJ_LEVEL", "0")) and y.shape[0] > 1:
        torch.cuda.synchronize()  # expected-note {{sync-device-synchronize}}
    if "MYPROJ_DUMP" in os.environ:
        dump_stats(y)
    if os.environ.get("MYPROJ_FAST", "1") == "1":
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    if not os.environ.get("MYPROJ_QUIET"):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return checked(y)


static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = step(static_x)
