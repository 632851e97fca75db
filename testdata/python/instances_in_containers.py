# Modules handed to a capturing helper inside tuples and lists, through a
# second function, a list filled by append, a loop over zip() and
# enumerate(), and a comprehension whose variable shadows a parameter: the
# helper's call runs each element's forward. A module class nobody hands in
# is not reached, whatever it does.
import torch


def _capture_each(callables, sample_args):
    if not isinstance(callables, tuple):
        callables = (callables,)
        sample_args = (sample_args,)
    graphs = [torch.cuda.CUDAGraph() for _ in range(len(sample_args))]
    for idx, (fn, args, graph) in enumerate(zip(callables, sample_args, graphs)):
        with torch.cuda.graph(graph):
            fn(*args)
    return graphs


def capture_modules(modules, sample_args):
    one = False
    if not isinstance(modules, tuple):
        one = True
        modules = (modules,)
    funcs = []
    for module in modules:
        funcs.append(module)
    if one:
        funcs = funcs[0]
    else:
        funcs = tuple(funcs)
    return _capture_each(funcs, sample_args)


class Norm(torch.nn.Module):
    def forward(self, x):
        return x / x.norm().item()  # expected-error {{sync-tensor-read}}


class Clip(torch.nn.Module):
    def forward(self, x):
        return x.clamp(max=x.max().item())  # expected-error {{sync-tensor-read}}


class Unused(torch.nn.Module):
    def forward(self, x):
        return x.cpu()


def run(module, mode):
    if module == "norm":
        modules = [Norm() for _ in range(2)]
    else:
        modules = [Clip() for _ in range(2)]
    sample = (torch.randn(4, device="cuda"),)
    if mode == "each":
        return [capture_modules(module, sample) for module in modules]
    return capture_modules(tuple(modules), (sample, sample))


unused = Unused()
