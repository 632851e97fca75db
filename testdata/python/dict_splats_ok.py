# expected-no-diagnostics
# Keyword arguments a helper builds as a dict (the whole result, or one
# element of a tuple it returns) and a test splats into the captured call:
# the keys the helper writes are all the call passes, so the parameters it
# leaves out hold their defaults and the variable-length path never runs.
import torch


def decode(query, lens=None, out=None):
    if lens is not None:
        query = query[: int(lens.max().item())]
    return query


def prepare(query):
    if query.dim() == 3:
        return {"query": query.flatten(0, 1)}, 3
    args = {"query": query}
    return args, 4


def make_kwargs(query):
    return dict(query=query)


def test_tuple_element(query):
    call_args, _ = prepare(query)
    extra = {"out": None}
    decode(**call_args, **extra)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        decode(**call_args, **extra)
    return g


def test_whole_result(query):
    kwargs = make_kwargs(query)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        decode(**kwargs)
    return g
