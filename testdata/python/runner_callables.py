# How real graph runners reach the model they capture: a closure handed to a
# capture helper (sglang), a module kept in an attribute set from a constructor
# parameter (vLLM's CUDAGraphWrapper), a model passed as an argument and called
# (vLLM's CudaGraphManager), a bound method kept in a local, a functools.partial,
# an object that calls back into its creator (NeMo's RNNT decoders), and a
# closure over the model's forward that a context manager yielded (sglang's
# `with patch_model(...) as forward:` handing `forward` to `run_once`).
import functools
from contextlib import contextmanager

import torch
from torch import nn


class ClosureModel(nn.Module):
    def forward(self, x):
        return x * x.sum().item()  # expected-error {{sync-tensor-read}}
        # CHECK-NOTES@-1: 'run_once' is called here under capture


class PassedModel(nn.Module):
    def forward(self, x):
        return x.nonzero()  # expected-error {{data-dependent-shape}}
        # CHECK-NOTES@-1: 'PassedModel.forward' is called here under capture


class ManagedModel(nn.Module):
    def forward(self, x):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


class Decoder(nn.Module):
    def forward(self, x):
        return x


class Runnable(nn.Module):
    def forward(self, x):
        n = int(x.max())  # expected-error {{sync-tensor-read}}
        return x[:n]


class GraphWrapper:
    def __init__(self, runnable, pool):
        self.runnable = runnable
        self.pool = pool

    def __call__(self, x):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g, pool=self.pool):
            out = self.runnable(x)
        return out


def capture_graph(graph, pool, stream, run_once_fn):
    with torch.cuda.graph(graph, pool=pool, stream=stream):
        out = run_once_fn()
    return out


def capture_model(model, inputs):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = model(**inputs)
    return out


class Manager:
    def __init__(self, model):
        self.model = model

    def capture(self, x):
        capture_fn = self._capture
        capture_fn(x=x)

    def _capture(self, x):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            self.model(x)


class Greedy:
    def __init__(self):
        self.decoder = Decoder()
        self.graphed = GraphedDecode(self)

    def _pred_step(self, y):
        return y.cpu()  # expected-error {{sync-device-to-host-copy}}

    def _joint_step(self, y):
        return y.tolist()  # expected-error {{sync-tensor-read}}


class GraphedDecode:
    def __init__(self, caller):
        self.caller = caller

    def capture(self, y):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            self.caller._pred_step(y)
            self.caller._joint_step(y)


class YieldedModel(nn.Module):
    def forward(self, ids):
        n = int(ids.max())  # expected-error {{sync-tensor-read}}
        # CHECK-NOTES@-1: 'YieldedModel.forward' is called here under capture
        return ids[:n]


class ClosureOverSelf(nn.Module):
    def forward(self, ids):
        return ids.tolist()  # expected-error {{sync-tensor-read}}


@contextmanager
def patch_model(model, enable_compile):
    if enable_compile:
        yield torch.compile(model.forward)
    else:
        yield model.forward


class BatchRunner:
    def __init__(self, model: YieldedModel):
        self.model = model
        self.aux = ClosureOverSelf()

    def capture(self):
        for bs in (1, 2):
            with patch_model(self.model, False) as forward:
                self.capture_one(bs, forward)

    def capture_one(self, bs, forward):
        ids = torch.zeros(bs, dtype=torch.long, device="cuda")

        def run_once():
            out = forward(ids)
            return self.aux(out)  # `self` is the method's, seen from the closure

        return capture_graph(torch.cuda.CUDAGraph(), None, torch.cuda.Stream(), run_once)


def scaled(x, scale):
    return x * scale.item()  # expected-error {{sync-tensor-read}}


def main():
    x = torch.randn(4, device="cuda")
    wrapper = GraphWrapper(Runnable(), torch.cuda.graph_pool_handle())
    wrapper(x)

    def run_once():
        return ClosureModel()(x)

    capture_graph(torch.cuda.CUDAGraph(), None, torch.cuda.Stream(), run_once)
    capture_model(PassedModel(), {"x": x})
    Manager(ManagedModel()).capture(x)
    Greedy().graphed.capture(x)
    BatchRunner(YieldedModel()).capture()
    fn = functools.partial(scaled, scale=x)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn(x)
