# expected-no-diagnostics
# A test that captures with plain tensors: only test_eager.py, another
# program, builds a weight with a gather method.
import torch

from lib.weights import capture_forward


def test_capture():
    w = torch.zeros(4, 4, device="cuda")
    capture_forward([w], torch.zeros(4, 4, device="cuda"))
