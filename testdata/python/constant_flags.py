# The unsafe twins of constant_flags_ok.py: a constant that lets the code
# through, and an early exit that does not leave the function.
import torch

VERBOSE = True
QUIET = True


def log_verbose(message):
    if not VERBOSE:
        return
    print(message)  # expected-warning {{host-io-in-capture}}


def log_unless_quiet(message):
    if not QUIET:
        message = message.upper()
    print(message)  # expected-warning {{host-io-in-capture}}


def trace(x):
    if not VERBOSE:
        return x
    torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x


def body(x):
    log_verbose("body")
    log_unless_quiet("body")
    return trace(x * 2)


def step(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = body(x)
    return out
