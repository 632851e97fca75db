# A capture helper object keeps the function it wraps (`self.function = fn`)
# and captures it only when its switch is on. An object built with the
# switch on (or left to its default) captures what it is handed; one whose
# switch its caller cannot see may have it on.
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


class Trainer:
    def __init__(self, model, graphs):
        self.model = model
        self.train_step = StepCapture(model)(self.train_step)
        self.eval_step = StepCapture(model, use_graphs=graphs)(self.eval_step)
        self.valid_step = EvalCapture(model)(self.valid_step)

    def train_step(self, x):
        loss = self.model(x).sum()
        print(loss.item())  # expected-warning {{host-io-in-capture}} expected-error {{sync-tensor-read}}
        return loss

    def eval_step(self, x):
        return x.nonzero()  # expected-error {{data-dependent-shape}}

    def valid_step(self, x):
        return x.unique()  # expected-error {{data-dependent-shape}}


def train(model, loader):
    @StepCapture(model)
    def forward_train(x):
        return model(x).sum().item()  # expected-error {{sync-tensor-read}}

    for x in loader:
        forward_train(x)
