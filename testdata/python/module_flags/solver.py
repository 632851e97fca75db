# A module flag some analysed code sets through its module (`runtime.verbose
# = True` in the entry script) may be on: the code under it is checked.
import torch

import settings.runtime as rt
from settings import runtime


def step(x):
    if rt.debug_nan:
        if torch.isnan(x).any():
            raise ValueError("x is nan")
    if runtime.verbose:
        print("step", x.sum().item())  # expected-error {{sync-tensor-read}} expected-warning {{host-io-in-capture}}
    return x * 2
