# Keyword arguments a helper builds as a dict and a test splats into the
# captured call, where the keys decide nothing or decide the sync: keys that
# differ between the helper's returns, a key the test adds afterwards, and
# a dict handed to another function first. Each keeps the branch.
import torch


def decode(query, lens=None):
    if lens is not None:
        lens.cpu()  # expected-error {{sync-device-to-host-copy}}
    return query


def decode_added(query, lens=None):
    if lens is not None:
        return query[: int(lens.max().item())]  # expected-error {{sync-tensor-read}}
    return query


def decode_handed(query, lens=None):
    if lens is not None:
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return query


def prepare(query, lens):
    if lens is None:
        return {"query": query}, 0
    return {"query": query, "lens": lens}, 1


def make_kwargs(query):
    return {"query": query}


def complete(kwargs, lens):
    kwargs["lens"] = lens


def test_keys_differ(query, lens):
    call_args, _ = prepare(query, lens)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        decode(**call_args)
    return g


def test_key_added(query, lens):
    kwargs = make_kwargs(query)
    kwargs["lens"] = lens
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        decode_added(**kwargs)
    return g


def test_handed_on(query, lens):
    kwargs = make_kwargs(query)
    complete(kwargs, lens)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        decode_handed(**kwargs)
    return g
