# Suppressions: with a reason they silence; without one they are reported themselves.
import torch

static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    a = static_x.sum().item()  # graphsafe: ignore[sync-tensor-read] capture is expected to fail in this test
    # graphsafe: ignore[sync-tensor-read] warm-up check, never replayed
    b = static_x.max().item()
    c = static_x.min().item()  # graphsafe: ignore[sync-tensor-read]
    # expected-warning@-1 {{suppression-missing-reason}}
    d = static_x.mean().item()  # expected-error {{sync-tensor-read}}
