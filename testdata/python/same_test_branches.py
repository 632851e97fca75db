# A value bound under one outcome of a test and used under the same outcome
# of the same test later: only that branch's value reaches the use. The
# other outcome's values still do where the test is different, where a
# name in it was bound again between the two ifs, or where a call decides.
import torch


class Eager(torch.nn.Module):
    def forward(self, x):
        return x * float(x.max())  # expected-error {{sync-tensor-read}}


class Static(torch.nn.Module):
    def forward(self, x):
        return x * 2


class Other(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # expected-error {{data-dependent-branch}}
            x = x + 1
        return x


def rebound_between(x, strategy: str):
    if strategy != "eager":
        net = Static()
    else:
        net = Eager()
    strategy = strategy.lower()
    g = torch.cuda.CUDAGraph()
    if strategy != "eager":
        with torch.cuda.graph(g):
            y = net(x)
    return g


def other_test(x, strategy: str, graphs: bool):
    if strategy == "eager":
        net = Eager()
    else:
        net = Static()
    g = torch.cuda.CUDAGraph()
    if graphs:
        with torch.cuda.graph(g):
            y = net(x)
    return g


def decided_by_a_call(x, config):
    net = Static()
    if config.pick():
        net = Other()
    g = torch.cuda.CUDAGraph()
    if config.pick():
        with torch.cuda.graph(g):
            y = net(x)
    return g


class Runner:
    def __init__(self, use_graphs: bool):
        self.use_graphs = use_graphs
        self.graph = torch.cuda.CUDAGraph()

    def configure(self):
        self.use_graphs = not self.use_graphs

    def run(self, x):
        if self.use_graphs:
            net = Static()
        else:
            net = Eager()
        self.configure()
        if self.use_graphs:
            with torch.cuda.graph(self.graph):
                y = net(x)
        return y
