# Calls resolved by type, not by name: nothing here runs unsafe code under capture.
# expected-no-diagnostics
import logging
import warnings
from contextlib import contextmanager

import torch
from torch import nn

logger = logging.getLogger(__name__)


def init_then_script(self, *args, **kwargs):
    torch.cuda.synchronize()  # stored as some class's __init__; never a base of Guard


class Scripted:
    pass


Scripted.__init__ = init_then_script


class Guard:
    def __init__(self):
        super().__init__()  # object.__init__, not whatever is stored as __init__ elsewhere
        self.prev = False


class Scaler:
    def update(self):
        pass


class ShardedScaler(Scaler):
    def update(self):
        found_inf = torch.zeros(1, device="cuda")
        if found_inf.item():  # only a ShardedScaler runs this
            pass


def helper_called_later(x):
    return x.item()


class Holder:
    def __init__(self, fn):
        self.fn = fn  # kept, and called only outside any capture

    def run(self, x):
        return self.fn(x)


def capture_with(graph, body):
    body()  # warm-up, outside the capture
    with torch.cuda.graph(graph):
        pass


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.time_idx_t = None
        self.first_call = True
        self.static_buffers = []

    def forward(self, x):
        if self.first_call:
            self.time_idx_t = torch.tensor(0, device=x.device)
            self.first_call = False
        return self.lin(x)

    def step(self, x):
        self.time_idx_t += 1  # an in-place add on a device tensor: captured
        if torch.jit.is_scripting() or not torch._C._is_torch_function_enabled():
            return x
        if torch.xpu.is_available():
            return x
        warnings.warn("decoding without a length bound")
        logger.debug("step %d", 3)
        return self(x)


def forward(ids):
    return ids.item()  # a module function that closures below never call


class QuietModel(nn.Module):
    def forward(self, ids):
        return ids * 2


@contextmanager
def patch_model(model):
    yield model.forward


class BatchRunner:
    def __init__(self, model: QuietModel):
        self.model = model

    def capture(self):
        with patch_model(self.model) as forward:
            self.capture_one(forward)
        with open("log.txt") as forward_log:  # not a generator: nothing is yielded
            forward_log.write("done")

    def capture_one(self, forward):
        ids = torch.zeros(2, dtype=torch.long, device="cuda")

        def run_once():
            return forward(ids)  # the parameter, not the module's `forward`

        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            run_once()


def main():
    x = torch.randn(4, device="cuda")
    scaler = Scaler()
    holder = Holder(helper_called_later)
    dec = Decoder()
    dec(x)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        Guard()
        scaler.update()
        dec.step(x)
    holder.run(x)
    capture_with(torch.cuda.CUDAGraph(), lambda: helper_called_later(x))
    BatchRunner(QuietModel()).capture()
