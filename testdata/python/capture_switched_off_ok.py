# expected-no-diagnostics
# A capture helper object built with its capture switched off runs the
# function it wraps eagerly, every step: nothing it was handed is captured,
# whether the switch is read in the wrapper it returns (a closure) or in a
# method, and however the object is named where it is built.
import functools

import torch


class StepCapture:
    def __init__(self, model, use_graphs=True):
        self.model = model
        if torch.cuda.is_available():
            if use_graphs and not getattr(model, "graph_safe", True):
                use_graphs = False
            self.graphs_enabled = use_graphs
        else:
            self.graphs_enabled = False
        self.graph = torch.cuda.CUDAGraph()
        self.step = 0

    def __call__(self, fn):
        self.function = fn

        @functools.wraps(fn)
        def decorated(*args):
            if self.graphs_enabled:
                return self._graphed(*args)
            return self._run(*args)

        return decorated

    def _graphed(self, *args):
        if self.step == 0:
            with torch.cuda.graph(self.graph):
                self.output = self._run(*args)
        self.step += 1
        self.graph.replay()
        return self.output

    def _run(self, *args):
        return self.function(*args)


class EvalCapture(StepCapture):
    def __init__(self, model, use_graphs=True):
        super().__init__(model, use_graphs)
        self.no_grad = True


class MethodCapture:
    def __init__(self, enabled=True):
        self.enabled = enabled
        self.graph = torch.cuda.CUDAGraph()

    def wrap(self, fn):
        self.fn = fn
        return self.run

    def run(self, x):
        if not self.enabled:
            return self.fn(x)
        return self._capture(x)

    def _capture(self, x):
        with torch.cuda.graph(self.graph):
            y = self.fn(x)
        return y


class Trainer:
    def __init__(self, model):
        self.model = model
        # use_graphs=True crashes this model: both steps run eagerly.
        self.train_step = StepCapture(model, use_graphs=False)(self.train_step)
        capture = StepCapture(model, use_graphs=False)
        self.eval_step = capture(self.eval_step)
        self.log_step = MethodCapture(enabled=False).wrap(self.log_step)
        self.valid_step = EvalCapture(model, use_graphs=False)(self.valid_step)

    def train_step(self, x):
        loss = self.model(x).sum()
        print(loss.item())
        return loss

    def eval_step(self, x):
        return x.nonzero()

    def log_step(self, x):
        return x.tolist()

    def valid_step(self, x):
        return x.unique()


def train(model, loader):
    @StepCapture(model, use_graphs=False)
    def forward_train(x):
        return model(x).sum().item()

    for x in loader:
        forward_train(x)
