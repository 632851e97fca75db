# The buffer iterated is the subclass: its own _sample runs.
import torch


class Buffer:
    def __iter__(self):
        while True:
            yield self.sample()

    def sample(self):
        return self._sample()

    def _sample(self):
        return torch.zeros(2, device="cuda")


class DictBuffer(Buffer):
    def sample(self):
        return super().sample()

    def _sample(self):
        return torch.ones(2, device="cuda")


class Prioritized(DictBuffer):
    def _sample(self):
        return torch.zeros(2, device="cuda").nonzero()  # expected-error {{data-dependent-shape}}


def main():
    buffer = Prioritized()
    other = Prioritized()

    def update():
        for batch in buffer:
            return batch

    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        update()
    return other
