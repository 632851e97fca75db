# What a set-up function hands back in a tuple, unpacked by its caller
# (`model, optimizer = prepare(args)`), and a name rebound in a branch that
# may not run (`if args.ddp: model = DDP(model)`): the call under capture
# reaches what each element, and each binding that may reach it, holds, and
# nothing another element or an overwritten binding holds.
import torch
from torch.nn.parallel import DistributedDataParallel as DDP


class Head(torch.nn.Module):
    def forward(self, x):
        return x * x.sum().item()  # expected-error {{sync-tensor-read}}


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.head = Head()

    def forward(self, x):
        return self.head(x)


class Metric(torch.nn.Module):
    def forward(self, x):
        return x.max().item()  # not under capture: element 1 is never called there


class Discarded(torch.nn.Module):
    def forward(self, x):
        return x.min().item()  # not under capture: always rebound before the region


class Wide(torch.nn.Module):
    def forward(self, x):
        return x.tolist()  # expected-error {{sync-tensor-read}}


class Fallback(torch.nn.Module):
    def forward(self, x):
        return x.cpu()  # expected-error {{sync-device-to-host-copy}}


def prepare(args):
    model = Encoder()
    metric = Metric()
    if args.compile:
        model = torch.compile(model)
    if args.ddp:
        model = DDP(model)
    return model, metric, 3


def take_step(model, x):
    return model(x)


def train(args):
    model, metric, steps = prepare(args)
    g = torch.cuda.CUDAGraph()
    x = torch.zeros(8, device="cuda")
    with torch.cuda.graph(g):
        y = take_step(model, x)
    return metric(y)


def choose(args):
    net = Discarded()
    if args.big:
        net = Wide()
    else:
        net = Fallback()
    g = torch.cuda.CUDAGraph()
    x = torch.zeros(8, device="cuda")
    with torch.cuda.graph(g):
        net(x)


class Plain(torch.nn.Module):
    def forward(self, x):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


class Tuned(torch.nn.Module):
    def forward(self, x):
        return x.nonzero()  # expected-error {{data-dependent-shape}}


def maybe_tuned(args):
    net = Plain()
    if args.tuned:
        net = Tuned()
    g = torch.cuda.CUDAGraph()
    x = torch.zeros(8, device="cuda")
    with torch.cuda.graph(g):
        net(x)
