# Ops whose output shape depends on tensor values.
import torch
import torch.nn.functional as F

static_x = torch.randn(16, device="cuda")
labels = torch.zeros(16, dtype=torch.long, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    idx = torch.nonzero(static_x > 0)  # expected-error {{data-dependent-shape}}
    pos = static_x.nonzero()  # expected-error {{data-dependent-shape}}
    sel = torch.masked_select(static_x, static_x > 0)  # expected-error {{data-dependent-shape}}
    u = labels.unique()  # expected-error {{data-dependent-shape}}
    where1 = torch.where(static_x > 0)  # expected-error {{data-dependent-shape}}
    rep = static_x.repeat_interleave(labels)  # expected-error {{data-dependent-shape}}
    rep2 = torch.repeat_interleave(static_x, labels)  # expected-error {{data-dependent-shape}}
    rep3 = torch.repeat_interleave(labels)  # expected-error {{data-dependent-shape}}
    onehot = F.one_hot(labels)  # expected-error {{data-dependent-shape}}
