# expected-no-diagnostics
# decorator_instances.py's capture class beside a profiling decorator that
# keeps the step in an attribute of the same name but never captures it:
# only what the capture class was handed runs under its capture.
import functools
import time

import torch


class StaticCapture:
    def __init__(self):
        self.graph = torch.cuda.CUDAGraph()
        self.captured = False

    def __call__(self, fn):
        self.function = fn

        @functools.wraps(fn)
        def decorated(*args):
            if not self.captured:
                with torch.cuda.graph(self.graph):
                    self.function(*args)
                self.captured = True
            self.graph.replay()

        return decorated


class Profile:
    def __call__(self, fn):
        self.function = fn

        @functools.wraps(fn)
        def timed(*args):
            start = time.perf_counter()
            out = self.function(*args)
            print("took", time.perf_counter() - start)
            return out

        return timed


def train(model, batches):
    @StaticCapture()
    def step(x):
        return model(x).sum()

    @Profile()
    def report(x):
        print("loss", model(x).sum().item())

    for x in batches:
        step(x)
        report(x)
