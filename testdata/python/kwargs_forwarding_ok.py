# expected-no-diagnostics
# `**kwargs` handed down a stack of modules and helpers: the captured calls
# pass no keyword the layers' named parameters do not take, so every
# `**kwargs` on the way is empty and the innermost parameters keep their
# defaults, whose branches (the variable-length path that reads lengths on
# the host) never run in these captures.
import torch
from torch import nn


def varlen_lengths(x, cu_seqlens=None):
    if cu_seqlens is not None:
        n = int(cu_seqlens[-1].item())
        return x[:n]
    return x


def packed(x, **kwargs):
    # Reading the mapping leaves it as the caller passed it.
    kwargs.pop("trace", None)
    return varlen_lengths(x, **kwargs)


class Mixer(nn.Module):
    def forward(self, x, seq_idx=None, cu_seqlens=None, inference_params=None):
        if cu_seqlens is not None:
            torch.cuda.synchronize()
        return varlen_lengths(x, cu_seqlens=cu_seqlens)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.mixer = Mixer()

    def forward(self, x, inference_params=None, **mixer_kwargs):
        return self.mixer(x, inference_params=inference_params, **mixer_kwargs)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Block() for _ in range(2)])

    def forward(self, x, inference_params=None, **mixer_kwargs):
        for layer in self.layers:
            x = layer(x, inference_params=inference_params, **mixer_kwargs)
        return x


def capture(model, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = model(x, inference_params=None)
        out = packed(out)
    return g, out


capture(Model(), torch.zeros(8, device="cuda"))
