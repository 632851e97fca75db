# A test that captures with its own distributed-weight stub: the stub's
# gather runs under that capture, and its print is reported.
import torch

from lib.weights import capture_forward


class LoggingWeight(torch.Tensor):
    is_distributed = True

    def gather(self):
        print("gathering")  # expected-warning {{host-io-in-capture}}
        return [self]


def test_capture():
    w = LoggingWeight()
    capture_forward([w], torch.zeros(4, 4, device="cuda"))
