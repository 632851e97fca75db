# expected-no-diagnostics
# `for batch in buffer` runs the __iter__ of the buffer's class with self
# that class: its `self.sample()` and what that calls are the buffer's own
# methods, not those of subclasses built elsewhere.
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
        return torch.zeros(2, device="cuda").nonzero()


def main():
    buffer = DictBuffer()
    other = Prioritized()

    def update():
        for batch in buffer:
            return batch

    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        update()
    return other
