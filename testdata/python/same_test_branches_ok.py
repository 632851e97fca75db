# expected-no-diagnostics
# A value bound under one outcome of a test and used under the same outcome
# of the same test later, with nothing in the test bound again between:
# only that branch's value reaches the use (torchmd-net's neighbour-list
# benchmark captures the static strategy and replays the eager one plainly).
import torch


class Eager(torch.nn.Module):
    def forward(self, x):
        assert not (torch.unique(x, return_counts=True)[1] > 8).any()
        return x * float(x.max())


class Static(torch.nn.Module):
    def forward(self, x):
        return x * 2


def benchmark(x, strategy: str):
    if strategy != "distance":
        nl = Static()
    else:
        nl = Eager()
    for _ in range(3):
        nl(x)
    g = torch.cuda.CUDAGraph()
    if strategy != "distance":
        with torch.cuda.graph(g):
            y = nl(x)
        g.replay()
    else:
        y = nl(x)
    return y


def only_when_graphed(x, args):
    net = Eager()
    if args.cuda_graphs:
        net = Static()
    g = torch.cuda.CUDAGraph()
    if args.cuda_graphs:
        with torch.cuda.graph(g):
            y = net(x)
    return g


def eager_elsewhere(x, use_graphs):
    if not use_graphs:
        net = Eager()
    elif x.is_cuda:
        net = Static()
    else:
        net = Static()
    g = torch.cuda.CUDAGraph()
    if not use_graphs:
        return net(x)
    else:
        with torch.cuda.graph(g):
            y = net(x)
    return g


class Runner:
    def __init__(self, use_graphs: bool):
        self.use_graphs = use_graphs
        self.graph = torch.cuda.CUDAGraph()
        self.model = Static()

    def run(self, x):
        if self.use_graphs:
            net = Static()
        else:
            net = Eager()
        self.model(x)
        if self.use_graphs:
            with torch.cuda.graph(self.graph):
                y = net(x)
        else:
            y = net(x)
        return y
