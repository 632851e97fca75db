# expected-no-diagnostics
# Inside a method a subclass defines, self is that subclass (or one below
# it): its self calls dispatch there, not over the siblings the receiver's
# declared class also has. The tuner profiles any runner; GemmRunner's
# forward asks GemmRunner's tactics, never the all-reduce runner's.
import torch


class Runner:
    def __call__(self, x):
        return self.forward(x)

    def forward(self, x):
        raise NotImplementedError

    def tactics(self, x):
        return [0]


class GemmRunner(Runner):
    def forward(self, x):
        tactic = self.tactics(x)[0]
        return x * (tactic + 1)

    def tactics(self, x):
        return [1, 2]


class AllReduceRunner(Runner):
    def tactics(self, x):
        ready = x.sum().item()
        return [int(ready)]


RUNNERS = [GemmRunner(), AllReduceRunner()]


def profile(runner: Runner, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = runner(x)
    return g, y
