# Callables and modules reach a function inside a container it is handed: a
# list passed for a parameter, the positions that go into `*args`, a
# container copied into an attribute, a slice of a module list, and all of
# them are called under the capture by iterating or indexing the container,
# also where a list built by appends is handed on through another function
# or an attribute holding one is passed.
import torch
from torch import nn


def sync_hook(x):
    torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x


def read_hook(x):
    return x.item()  # expected-error {{sync-tensor-read}}


def host_hook(x):
    print("step")  # expected-warning {{host-io-in-capture}}
    return x


def copy_hook(x):
    return x.cpu()  # expected-error {{sync-device-to-host-copy}}


def run_all(x, hooks):
    for h in hooks:
        x = h(x)
    return x


def run_first(x, *hooks):
    return hooks[0](x)


def handed_on(x, hooks):
    return run_all(x, hooks)


def alloc_hook(x):
    return torch.empty(4, device="cuda").nonzero()  # expected-error {{data-dependent-shape}}


def item_hook(x):
    return x.max().item()  # expected-error {{sync-tensor-read}}


def listed_hook(x):
    return x.tolist()  # expected-error {{sync-tensor-read}}


def run_each(x, *hooks):
    for h in hooks[0:]:
        x = h(x)
    return x


class Hooks:
    def __init__(self, *fns):
        self.fns = list(fns)

    def __call__(self, x):
        for f in self.fns:
            x = f(x)
        return x


def event_hook(x):
    torch.cuda.current_stream().synchronize()  # expected-error {{sync-device-synchronize}}
    return x


class Stepper:
    def __init__(self):
        self.hooks = []
        self.hooks.append(event_hook)

    def step(self, x):
        return run_all(x, self.hooks)


class Syncing(nn.Module):
    def forward(self, x):
        return x.nonzero()  # expected-error {{data-dependent-shape}}


class Chain(nn.Module):
    def __init__(self, *blocks):
        super().__init__()
        self.blocks = nn.ModuleList([b for b in blocks])

    def forward(self, x):
        head = self.blocks[:1]

        def body(y):
            for b in head:
                y = b(y)
            return y

        return body(x)


def main():
    x = torch.ones(4, device="cuda")
    hooks = Hooks(copy_hook)
    chain = Chain(Syncing())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = run_all(x, [sync_hook])
        y = run_first(y, alloc_hook)
        built = []
        built.append(item_hook)
        y = handed_on(y, built)
        listed = [listed_hook]
        y = run_all(y, listed)
        y = run_each(y, read_hook, host_hook)
        y = hooks(y)
        y = chain(y)
        y = Stepper().step(y)
