# expected-no-diagnostics
# Another test file, never imported and never capturing: its stub exists
# only while this file runs, so no capture of another program can meet it.
# Program-wide class facts made its gather look captured (through the
# duck-typed call in lib/weights.py).
import torch

from lib.weights import materialize


class CountingWeight(torch.Tensor):
    is_distributed = True

    def __init__(self):
        self.calls = []

    def gather(self):
        self.calls.append(1)
        return [self]


def test_eager():
    w = CountingWeight()
    assert materialize([w]) == [w]
    assert w.calls == [1]
