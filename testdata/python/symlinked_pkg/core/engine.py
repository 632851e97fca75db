# A package that reaches another folder through a symbolic link
# (core/accelerator -> ../accel), and captures through the accelerator's own
# helper, whose object comes from a global set on first use.
import torch

from core.accelerator import get_accelerator


class Engine:
    def capture(self, x):
        graph = get_accelerator().create_graph()
        with get_accelerator().capture_to_graph(graph):
            y = x * 2
            total = y.sum().item()  # expected-error {{sync-tensor-read}}
        with get_accelerator().timed("eager"):
            eager = y.sum().item()
        return y
