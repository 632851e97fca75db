# Reached through `from proj.ops import *` in train.py.
import torch


def scaled(x):
    return x * float(x.max())  # expected-error {{sync-tensor-read}}


def _private(x):
    return x.cpu()  # no finding: a star import binds public names only


def clean(x):
    return x * 2


def syncing(x):
    return x * x.sum().item()  # expected-error {{sync-tensor-read}}
    # CHECK-NOTES@-1: 'syncing' is called here under capture


def other_syncing(x):
    # no finding: overwritten in the table before its call, kept by a partial
    return x.cpu()


def make_step(kind):
    def step(x):
        return x.nonzero()  # expected-error {{data-dependent-shape}}

    return step
