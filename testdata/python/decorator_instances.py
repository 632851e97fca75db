# A training step decorated with an instance of a capture class: the
# decoration calls the instance's __call__ with the step, which keeps it and
# later captures it. What the step does runs under that capture.
import functools

import torch


class StaticCapture:
    def __init__(self, model, warmup=3):
        self.model = model
        self.warmup = warmup
        self.graph = torch.cuda.CUDAGraph()
        self.iteration = 0
        self.output = None

    def __call__(self, fn):
        self.function = fn

        @functools.wraps(fn)
        def decorated(*args, **kwargs):
            return self._graph_forward(*args, **kwargs)

        return decorated

    def _graph_forward(self, *args, **kwargs):
        if self.iteration < self.warmup:
            self.output = self.function(*args, **kwargs)
        elif self.iteration == self.warmup:
            with torch.cuda.graph(self.graph):
                self.output = self.function(*args, **kwargs)
        else:
            self.graph.replay()
        self.iteration += 1
        return self.output


def train(model, batches):
    @StaticCapture(model=model)
    def training_step(x):
        loss = model(x).sum()
        print("loss", loss.item())  # expected-error {{sync-tensor-read}} expected-warning {{host-io-in-capture}}
        return loss

    for x in batches:
        training_step(x)
