# Printing or formatting a tensor in captured code reads it on the host.
import torch


def forward_step(x):
    y = x.sin()
    print(y)  # expected-error {{sync-print-tensor}}
    # CHECK-NOTES@-1: 'forward_step' is called here under capture
    msg = f"mean={y.mean()}"  # expected-error {{sync-print-tensor}}
    return y


static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = forward_step(static_x)


def checked_step(x):
    y = x.cos()
    # The condition of an assert runs on every call; its message only when
    # it fails.
    assert f"{y.max()}" != "nan", f"bad {y}"  # expected-error {{sync-print-tensor}}
    return y


with torch.cuda.graph(torch.cuda.CUDAGraph()):
    checked_step(static_x)


def logged_step(x):
    y = x.relu()
    # The copy is the sync, reported where it is made; what is printed is
    # host memory, and the print itself runs once.
    print(y.cpu())  # expected-error {{sync-device-to-host-copy}} expected-warning {{host-io-in-capture}}
    note = f"{y.to('cpu')}"  # expected-error {{sync-device-to-host-copy}}
    print(y.to(torch.device("cpu")))  # expected-error {{sync-device-to-host-copy}} expected-warning {{host-io-in-capture}}
    return y, note


with torch.cuda.graph(torch.cuda.CUDAGraph()):
    logged_step(static_x)
