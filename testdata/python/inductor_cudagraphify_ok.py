# expected-no-diagnostics
# A project function that shares the name of Inductor's cudagraphify_impl
# captures nothing; the model Inductor's helper is handed is clean.
import torch


def cudagraphify_impl(model, inputs, static_input_idxs=()):
    return lambda args: model(*args)


def checked(x):
    if x.isnan().any():
        x = torch.nan_to_num(x)
    return x


def layer_norm(x, weight):
    return torch.nn.functional.layer_norm(x, x.shape[-1:], weight)


def wrap(x, weight):
    eager = cudagraphify_impl(model=lambda args: checked(*args), inputs=[x])
    from torch._inductor.compile_fx import cudagraphify_impl as graphed

    run = graphed(model=lambda args: layer_norm(*args), inputs=[x, weight])
    return eager, run
