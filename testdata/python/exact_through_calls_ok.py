# An instance made by a constructor keeps its exact class through a parameter
# every caller fills with it and through an attribute every store fills with
# it: a subclass's override cannot run on it, even where the subclass is
# built elsewhere in the program.
# expected-no-diagnostics
import torch


class Wrapper(torch.nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, x):
        return self.module(x)


class ShardedWrapper(Wrapper):  # built for training, never handed to a runner
    def forward(self, x):
        torch.cuda.synchronize()
        return self.module(x)


class Runner:
    def __init__(self, model: torch.nn.Module):
        self.model = model
        self.graph = None

    def capture(self, x):
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            self.out = self.model(x)


class Engine:
    def __init__(self, net):
        self.model = None
        self.model = self.shard(net)  # overwritten before anything reads it
        self.model = Wrapper(net).to("cuda")
        self.runners = {}

    def shard(self, net) -> torch.nn.Module:
        return net

    def capture(self, x):
        runner = Runner(self.model)
        runner.capture(x)
        self.runners[0] = runner


def capture_directly(net, x):
    Runner(Wrapper(net)).capture(x)


def train(net, x):
    model = ShardedWrapper(net)
    return model(x)
