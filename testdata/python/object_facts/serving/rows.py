# The code each capture in runner.py reaches: every sync here runs under a
# capture that some caller makes with the attribute it tests unknown or true.
import torch


def rows_a(x, state):
    if state.is_prefill:
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x


def rows_b(x, state):
    if state.warm:
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x


def rows_c(x, state):
    if state.flag:
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x


def rows_d(state, x):
    if state.is_prefill:
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x


def rows_e(x, state):
    state.is_prefill = x.numel() > 4
    if state.is_prefill:
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x


def rows_f(x, state):
    if state.is_prefill:
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x


def rows_g(x, state):
    if state.is_prefill:
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x


def rows_h(x, state):
    if state.is_prefill:
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x


def rows_i(x, state):
    if state.is_prefill:
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x
