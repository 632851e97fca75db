# Inductor's cudagraphify helpers capture the model they are handed, by
# position or by keyword, as make_graphed_callables does (kernl wraps its
# optimised models so); the inputs a lambda splats into the model are
# tensors.
import torch
from torch._inductor.compile_fx import cudagraphify_impl


def layer_norm(x, weight):
    if x.isnan().any():  # expected-error {{data-dependent-branch}}
        x = torch.nan_to_num(x)
    return torch.nn.functional.layer_norm(x, x.shape[-1:], weight)


def softmax(x):
    torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x.softmax(-1)


def attention(q, k):
    return q @ k.transpose(-1, -2) + k.max().item()  # expected-error {{sync-tensor-read}}


def graphs_wrapper(model, inputs):
    model(*inputs)
    f = cudagraphify_impl(lambda args: model(*args), inputs, static_input_idxs=(0,))
    return lambda *args: f(list(args))


def optimise(weight, q, k):
    x = torch.randn(8, 16, device="cuda")
    norm = cudagraphify_impl(model=lambda args: layer_norm(*args), inputs=[x, weight])
    run = graphs_wrapper(softmax, [x])
    scores = torch.cuda.make_graphed_callables(callables=attention, sample_args=(q, k))
    return norm, run, scores
