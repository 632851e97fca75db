# A capture-status test keeps code out of capture; code it does not guard still counts.
import torch


def stats(x):
    if torch.cuda.is_current_stream_capturing():
        return x
    print(x.mean().item())
    return x


def maybe_log(x):
    if not torch.cuda.is_current_stream_capturing():
        print(x.sum().item())
    else:
        peek = x.max().item()  # expected-error {{sync-tensor-read}}
    return x


def validate(bounds):
    # The refusal sits in a `with` block: what follows the block is not
    # reached under capture either.
    with torch.cuda.device(bounds.device):
        if torch.cuda.is_current_stream_capturing():
            raise RuntimeError("validate before capture")
    low, high = bounds.cpu().tolist()
    return low < high


def validate_late(bounds):
    # A check that only logs does not stop the copy after it. The log itself
    # is meant for the capture alone: no finding.
    with torch.cuda.device(bounds.device):
        if torch.cuda.is_current_stream_capturing():
            print("validating under capture")
    low, high = bounds.cpu().tolist()  # expected-error {{sync-device-to-host-copy}}
    return low < high


def max_len(lens, known):
    # The status test in an elif: the else after it never runs in capture.
    if known is not None:
        n = int(known)
    elif torch.cuda.is_current_stream_capturing():
        n = lens.shape[0]
    else:
        n = lens.max().item()
    return n


def max_len_late(lens, known):
    # An elif that returns under capture does not stop what follows the
    # statement: the first branch may have run instead.
    if known is not None:
        n = int(known)
    elif torch.cuda.is_current_stream_capturing():
        return lens.shape[0]
    return lens.max().item()  # expected-error {{sync-tensor-read}}


class Plans:
    def __init__(self):
        self.kept = []
        self.calls = 0

    def _peek(self, x):
        return x.max().item()  # expected-error {{sync-tensor-read}}

    def plan(self, x):
        # Only the host's bookkeeping is the capture's own on the capturing
        # side: a sync there, directly or in a helper, still fails the capture.
        capturing = torch.cuda.is_current_stream_capturing()
        if capturing:
            self.kept.append(x)
            top = self._peek(x)
            low = x.min().item()  # expected-error {{sync-tensor-read}}
        self.calls += 1  # expected-warning {{host-state-mutation}}
        return x


static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = stats(static_x)
    z = maybe_log(static_x)
    ok = validate(static_x)
    late = validate_late(static_x)
    planned = Plans().plan(static_x)
    n = max_len(static_x, None)
    m = max_len_late(static_x, None)
