# Self calls inside a subclass's method still reach that subclass's own
# overrides and those of the classes below it, and a sibling whose own
# forward asks its tactics is reached through that forward.
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


class TunedGemmRunner(GemmRunner):
    def tactics(self, x):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return [3]


class AllReduceRunner(Runner):
    def forward(self, x):
        return x * self.tactics(x)[0]

    def tactics(self, x):
        ready = x.sum().item()  # expected-error {{sync-tensor-read}}
        return [int(ready)]


RUNNERS = [GemmRunner(), TunedGemmRunner(), AllReduceRunner()]


def profile(runner: Runner, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = runner(x)
    return g, y
