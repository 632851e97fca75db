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


static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = stats(static_x)
    z = maybe_log(static_x)
