# expected-no-diagnostics
# Capture-aware validation, as libraries write it: the status kept in a
# local (or an alias of it, or a helper with a fallback for builds without
# the query), a refusal under capture that settles the test repeated after
# it, a list that only code skipped under capture fills, and a flag computed
# from a parameter the caller leaves at its default (also through `**kw`).
import pytest
import torch


def _capturing(device):
    if not hasattr(torch.cuda, "is_current_stream_capturing"):
        return False
    return torch.cuda.is_current_stream_capturing()


def scalar_tensors(values, device):
    stream_capturing = _capturing(device)
    pending = []
    out = []
    for name, value in values:
        is_cuda = value.is_cuda
        is_capturing = stream_capturing
        if is_capturing and (not is_cuda or value.device != device):
            raise ValueError(f"{name} must be a CUDA tensor on {device} during capture")
        if not is_cuda:
            scalar = float(value.item())
            value = torch.full((1,), scalar, device=device)
        out.append(value)
        if is_capturing:
            continue
        pending.append(value)
    if pending:
        host = torch.stack(pending).cpu().tolist()
        if min(host) <= 0:
            raise ValueError("scales must be positive")
    return out


def _capturing_here():
    return torch.cuda.is_available() and torch.cuda.is_current_stream_capturing()


def offsets(cu_seqlens):
    if _capturing_here():
        raise RuntimeError("warm the offsets cache with one eager call before capturing")
    return cu_seqlens.detach().cpu().tolist()


def reject_graph_capture(op):
    if not torch.cuda.is_current_stream_capturing():
        return
    raise RuntimeError(f"{op}() must not be called during capture; call it between replays")


class Fleet:
    @staticmethod
    def _reject(op):
        reject_graph_capture(op)

    def set_mask(self, mask):
        self._reject("set_mask")
        return [int(v) for v in mask.cpu().tolist()]


def checked_lengths(query, cum_lens=None, max_len=None):
    has_var = cum_lens is not None
    if has_var:
        if max_len is None:
            host = cum_lens.cpu()
            max_len = int(host.max().item())
    return query * 2


def step(query, scales, device):
    kwargs = dict(query=query)
    static = scalar_tensors(scales, device)
    out = checked_lengths(**kwargs)
    out = checked_lengths(query)
    again = (lambda: checked_lengths(**kwargs))()
    literal = {"query": query, "max_len": None}
    by_literal = checked_lengths(**literal)
    return out, static, again, by_literal


def run(query, scales, device):
    step(query, scales, device)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        step(query, scales, device)
    return g


def test_refusals(query, mask):
    fleet = Fleet()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        with pytest.raises(RuntimeError):
            fleet.set_mask(mask)
        with pytest.raises(RuntimeError):
            offsets(query)
    return g
