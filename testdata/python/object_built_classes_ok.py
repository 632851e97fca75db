# expected-no-diagnostics
# The same model code, captured only as built with its dense parts: the
# sparse, pruned and filtered parts other configurations choose never run
# under these captures (object_built_classes.py captures them).
import pytest
import torch
from torch import nn


class Dense(nn.Module):
    def forward(self, x):
        return x * 2


class Sparse(nn.Module):
    def forward(self, x):
        return x[x > 0]


class Pruned(nn.Module):
    def forward(self, x):
        return x.nonzero()


class Filtered(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, x):
        return self.inner(x).unique()


class Net(nn.Module):
    def __init__(self, encoder, head):
        super().__init__()
        self.encoder = encoder
        self.head = head

    def forward(self, x):
        return self.head(self.encoder(x))


class Switchable(nn.Module):
    def __init__(self, kind="dense"):
        super().__init__()
        if kind == "dense":
            self.body = Dense()
        else:
            self.body = Pruned()

    def forward(self, x):
        return self.body(x)


def create_model(args):
    if args["model"] == "dense":
        encoder = Dense()
    elif args["model"] == "sparse":
        encoder = Sparse()
    else:
        raise ValueError(f"unknown model {args['model']}")
    if args["filter"] > -1:
        encoder = Filtered(encoder)
    return Net(encoder, Dense())


@pytest.mark.parametrize("name", ["dense"])
def test_dense_capture(name):
    model = create_model({"model": name, "filter": -1}).cuda().eval()
    x = torch.zeros(8, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)


def test_switchable_capture():
    model = torch.jit.script(Switchable())
    x = torch.zeros(8, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)


def test_keyword_config_capture():
    args = dict(model="dense", filter=-1)
    model = create_model(args)
    x = torch.zeros(8, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)


def build_eagerly(args):
    # Built from a configuration not known here, and never captured.
    return create_model(args)(torch.zeros(8))
