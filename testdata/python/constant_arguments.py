# A literal a call passes decides the callee's branches: what runs for the
# literal the captured call passes is checked, in the branch it takes, with
# a default standing in for an argument left out.
import torch


def grad_helper(x, only_inputs=True, check=None, debug=False):
    if not only_inputs:
        n = x.sum().item()  # expected-error {{sync-tensor-read}}
        # CHECK-NOTES@-1: 'grad_helper' is called here under capture
        x = x * n
    if check is not None:
        print("check", check)  # expected-warning {{host-io-in-capture}}
    if debug:
        return x.cpu()
    return x * 2


def sync_unless_capturing(x, capturing):
    if not capturing:
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x


def layer(x, capturing):
    return sync_unless_capturing(x, capturing)  # passed on: the caller's literal decides


def step(x, verbose):
    if not verbose:
        return x
    print("step", x.shape)  # expected-warning {{host-io-in-capture}}
    return x


static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = grad_helper(static_x, only_inputs=False, check="shapes")
    z = step(static_x, True)
    v = layer(static_x, False)
