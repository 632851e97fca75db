# A framework's own wrapper of a graphed-callables helper is one too: what
# its callers hand it is captured, and that callable's parameters take the
# graph's inputs (tensors), through any number of wrappers, also where the
# wrapper hands on a lambda that calls it.
import torch
from torch._inductor.compile_fx import cudagraphify_impl


def clip(x):
    if x.abs().max() > 10:  # expected-error {{data-dependent-branch}}
        x = x.clamp(-10, 10)
    return x


def norm(x):
    if x.isnan().any():  # expected-error {{data-dependent-branch}}
        x = torch.nan_to_num(x)
    return x


def scale(x, w):
    return x * w.sum().item()  # expected-error {{sync-tensor-read}}


def graph_it(fn, sample):
    return torch.cuda.make_graphed_callables(fn, sample)


def graph_module(module, sample, warmup=3):
    return graph_it(module, sample)


def inductor_graph(model, inputs):
    return cudagraphify_impl(lambda args: model(*args), inputs, static_input_idxs=())


def build(x, w):
    a = graph_it(clip, (x,))
    b = graph_module(norm, (x,))
    c = inductor_graph(scale, [x, w])
    return a, b, c
