# The same shapes as capture_status_flow_ok.py where what settles the test
# is missing: still reported.
import pytest
import torch


def _capturing():
    return torch.cuda.is_current_stream_capturing()


def reassigned(value, strict):
    capturing = _capturing()
    if strict:
        capturing = False
    if not capturing:
        value.item()  # expected-error {{sync-tensor-read}}


def refusal_without_status(value, device):
    if value.device != device and not value.is_cuda:
        raise ValueError("bad")
    if not value.is_cuda:
        value.item()  # expected-error {{sync-tensor-read}}


def filled_under_capture(values):
    capturing = _capturing()
    pending = []
    for value in values:
        if not capturing:
            continue
        pending.append(value)
    if pending:
        torch.stack(pending).cpu()  # expected-error {{sync-device-to-host-copy}}
    return values


def filled_by_callee(values, collect):
    pending = []
    collect(values, pending)
    if pending:
        torch.stack(pending).cpu()  # expected-error {{sync-device-to-host-copy}}


def warn_capture(op, strict):
    if not strict:
        return
    if torch.cuda.is_current_stream_capturing():
        raise RuntimeError(op)


def logs_capture(op):
    if torch.cuda.is_current_stream_capturing():
        print("under capture:", op)  # said at capture, as meant: no finding


def set_mask(mask, strict):
    warn_capture("set_mask", strict)
    return mask.cpu().tolist()  # expected-error {{sync-device-to-host-copy}}


def set_mask_logged(mask):
    logs_capture("set_mask")
    return mask.cpu().tolist()  # expected-error {{sync-device-to-host-copy}}


def checked_lengths(query, cum_lens=None):
    has_var = cum_lens is not None
    if has_var:
        cum_lens.cpu()  # expected-error {{sync-device-to-host-copy}}
    return query


def lengths_by_literal(query, cum_lens=None):
    if cum_lens is not None:
        cum_lens.cpu()  # expected-error {{sync-device-to-host-copy}}
    return query


def step(query, cum_lens, values, device):
    kwargs = dict(query=query)
    kwargs["cum_lens"] = cum_lens
    checked_lengths(**kwargs)
    literal = {"query": query, "cum_lens": cum_lens}
    lengths_by_literal(**literal)
    reassigned(query, True)
    refusal_without_status(query, device)
    filled_under_capture(values)
    filled_by_callee(values, lambda vs, out: out.extend(vs))


def test_refusals(mask):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        with pytest.raises(RuntimeError):
            set_mask(mask, True)
        set_mask_logged(mask)
    return g


def run(query, cum_lens, values, device):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        step(query, cum_lens, values, device)
    return g
