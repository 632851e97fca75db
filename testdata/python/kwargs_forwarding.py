# `**kwargs` handed down a stack of modules and helpers, where something
# does fill a parameter the innermost code tests: a keyword the captured
# call passes, a key a layer adds, a mapping of the layer's own, positions
# through `*args`. Each reaches its own variable-length path.
import torch
from torch import nn


def lengths_by_keyword(x, cu_seqlens=None):
    if cu_seqlens is not None:
        return x[: int(cu_seqlens[-1].item())]  # expected-error {{sync-tensor-read}}
    return x


def lengths_by_setdefault(x, cu_seqlens=None):
    if cu_seqlens is not None:
        return x[: int(cu_seqlens[-1].item())]  # expected-error {{sync-tensor-read}}
    return x


def packed(x, **kwargs):
    return lengths_by_keyword(x, **kwargs)


def packed_with_defaults(x, **kwargs):
    kwargs.setdefault("cu_seqlens", x.new_zeros(2, dtype=torch.int32))
    return lengths_by_setdefault(x, **kwargs)


class KeywordMixer(nn.Module):
    def forward(self, x, seq_idx=None, cu_seqlens=None):
        if cu_seqlens is not None:
            torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


class KeywordBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.mixer = KeywordMixer()

    def forward(self, x, **mixer_kwargs):
        return self.mixer(x, **mixer_kwargs)


class KeywordModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([KeywordBlock() for _ in range(2)])

    def forward(self, x, **mixer_kwargs):
        for layer in self.layers:
            x = layer(x, **mixer_kwargs)
        return x


class AddedKeyMixer(nn.Module):
    def forward(self, x, seq_idx=None, cu_seqlens=None):
        if cu_seqlens is not None:
            torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


class AddedKeyModel(nn.Module):
    def __init__(self, cu_seqlens):
        super().__init__()
        self.mixer = AddedKeyMixer()
        self.cu_seqlens = cu_seqlens

    def forward(self, x, **mixer_kwargs):
        mixer_kwargs["cu_seqlens"] = self.cu_seqlens
        return self.mixer(x, **mixer_kwargs)


class OptionsMixer(nn.Module):
    def forward(self, x, seq_idx=None, cu_seqlens=None):
        if cu_seqlens is not None:
            torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


class OptionsModel(nn.Module):
    def __init__(self, cu_seqlens):
        super().__init__()
        self.mixer = OptionsMixer()
        self.options = {"cu_seqlens": cu_seqlens}

    def forward(self, x):
        return self.mixer(x, **self.options)


class PositionalMixer(nn.Module):
    def forward(self, x, seq_idx=None, cu_seqlens=None):
        if cu_seqlens is not None:
            torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


class PositionalModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.mixer = PositionalMixer()

    def forward(self, *args):
        return self.mixer(*args)


def capture(x, cu):
    by_keyword, added_key = KeywordModel(), AddedKeyModel(cu)
    options, positional = OptionsModel(cu), PositionalModel()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = by_keyword(x, cu_seqlens=cu)
        out = added_key(out)
        out = options(out)
        out = positional(out, None, cu)
        out = packed(out, cu_seqlens=cu)
        out = packed_with_defaults(out)
    return g, out
