# A debug flag read from the environment in one module and imported by
# another (`from settings import DEBUG`) gates the code under it there as
# well: off in a default run, a note. One that is on by default gates
# nothing.
import torch

from settings import DEBUG, TRACE


def decode(x):
    if DEBUG:
        print("decode", x.shape)  # expected-note {{host-io-in-capture}}
    if TRACE:
        print("trace", x.shape)  # expected-warning {{host-io-in-capture}}
    return x * 2


def capture(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = decode(x)
    return g, y
