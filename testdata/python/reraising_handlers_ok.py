# expected-no-diagnostics
# Cleanup in a handler that re-raises runs only on the way out of a capture
# that is failing already: poisoning a pipe on its own stream, dropping a
# cached signature, logging. Replays never run it, and the capture it would
# break is lost anyway.
import logging

import torch

logger = logging.getLogger(__name__)


class Pipe:
    def __init__(self):
        self.abort_stream = torch.cuda.Stream()
        self.signatures = {}

    def abort(self):
        with torch.cuda.stream(self.abort_stream):
            torch.zeros(1, device="cuda")
        self.abort_stream.synchronize()

    def launch(self, x, key):
        try:
            return x * 2
        except RuntimeError as e:
            self.signatures.pop(key, None)
            logger.error("launch failed: %s", e)
            self.abort()
            raise RuntimeError("pipe poisoned") from e


def capture(x):
    pipe = Pipe()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        pipe.launch(x, "k")
    return g
