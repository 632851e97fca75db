# expected-no-diagnostics
# Fixed-shape forms of the same ops.
import torch
import torch.nn.functional as F

CONFIG = {"heads": 8, "kv_heads": 2}



class Attention(torch.nn.Module):
    def __init__(self, num_heads, num_heads_kv=None):
        super().__init__()
        self.num_heads = num_heads
        self.num_heads_kv = num_heads_kv if num_heads_kv is not None else num_heads

    def forward(self, k):
        # Counts from the configuration: host ints, though nothing here says
        # so; like a `.item()` on a value not known to be a tensor, no finding.
        return torch.repeat_interleave(k, dim=2, repeats=self.num_heads // self.num_heads_kv)


attn = Attention(CONFIG["heads"], CONFIG["kv_heads"])
static_x = torch.randn(16, device="cuda")
labels = torch.zeros(16, dtype=torch.long, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    clipped = torch.where(static_x > 0, static_x, torch.zeros_like(static_x))
    rep = static_x.repeat_interleave(labels, output_size=32)
    # A host int count gives a static shape (checked on an H200, torch 2.11).
    twice = static_x.repeat_interleave(2)
    thrice = torch.repeat_interleave(static_x, repeats=3)
    onehot = F.one_hot(labels, num_classes=10)
    nz = torch.nonzero_static(static_x, size=4)
    grouped = attn(static_x.view(1, 1, 4, 4))
