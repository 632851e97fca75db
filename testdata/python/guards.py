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
    # A check that only logs does not stop the copy after it.
    with torch.cuda.device(bounds.device):
        if torch.cuda.is_current_stream_capturing():
            print("validating under capture")  # expected-warning {{host-io-in-capture}}
    low, high = bounds.cpu().tolist()  # expected-error {{sync-device-to-host-copy}}
    return low < high


static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = stats(static_x)
    z = maybe_log(static_x)
    ok = validate(static_x)
    late = validate_late(static_x)
