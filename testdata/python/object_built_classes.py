# Which class a model's part is depends on how that model object was built:
# a factory choosing by a dict's item, a constructor choosing by a keyword,
# a test parametrized with one architecture. A capture runs the parts of
# the object it captures, as that object was built, whatever other objects
# of the class hold.
import pytest
import torch
from torch import nn


class Dense(nn.Module):
    def forward(self, x):
        return x * 2


class Sparse(nn.Module):
    def forward(self, x):
        return x[x > 0]  # expected-error {{boolean-mask-indexing}}


class Pruned(nn.Module):
    def forward(self, x):
        return x.nonzero()  # expected-error {{data-dependent-shape}}


class Filtered(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, x):
        return self.inner(x).unique()  # expected-error {{data-dependent-shape}}


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
    # A binding in an if with no else: what the chain above bound reaches too.
    if args["filter"] > -1:
        encoder = Filtered(encoder)
    return Net(encoder, Dense())


@pytest.mark.parametrize("name", ["sparse"])
def test_sparse_capture(name):
    model = create_model({"model": name, "filter": -1}).cuda().eval()
    x = torch.zeros(8, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)


def test_switchable_capture():
    model = torch.jit.script(Switchable(kind="pruned"))
    x = torch.zeros(8, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)


def test_filtered_capture():
    args = dict(model="dense", filter=0)
    model = create_model(args)
    x = torch.zeros(8, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)


def test_defaults_filled_capture():
    # An item filled in only where missing leaves the choice open: every
    # class the factory may build is checked.
    args = {"model": "dense"}
    if "filter" not in args:
        args["filter"] = 0
    model = create_model(args)
    x = torch.zeros(8, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)
