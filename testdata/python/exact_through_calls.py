# Where exactness is not known, a subclass's override may run: a caller
# passes an instance whose class is only annotated, a subclass stores
# another class in the attribute the capture reads, or a method called
# between two stores reads the first.
import torch


class Wrapper(torch.nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, x):
        return self.module(x)


class ShardedWrapper(Wrapper):
    def forward(self, x):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return self.module(x)


class LoggingWrapper(Wrapper):
    def forward(self, x):
        print("step", x.shape)  # expected-warning {{host-io-in-capture}}
        return self.module(x)


class TracingWrapper(Wrapper):
    def forward(self, x):
        x.nonzero()  # expected-error {{data-dependent-shape}}
        return self.module(x)


class Runner:
    def __init__(self, model: torch.nn.Module):
        self.model = model
        self.graph = None

    def capture(self, x):
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            self.out = self.model(x)


def capture_annotated(model: Wrapper, x):
    # Any Wrapper a user builds may come here.
    Runner(model).capture(x)


class Engine:
    def __init__(self, net):
        self.model = Wrapper(net)

    def capture(self, x):
        runner = Runner(self.model)
        runner.capture(x)


class LoggingEngine(Engine):
    def __init__(self, net):
        super().__init__(net)
        self.model = LoggingWrapper(net)


class Warmup:
    def __init__(self, net, x):
        self.model = TracingWrapper(net)
        self.model = self.capture_first(net, x)  # runs on the first store

    def capture_first(self, net, x):
        Runner(self.model).capture(x)
        return Wrapper(net)


def train(net, x):
    return ShardedWrapper(net)(x), LoggingEngine(net).capture(x)
