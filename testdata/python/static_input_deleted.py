# Deleting a static input while the graph still replays: replays keep reading
# its memory, which the next allocation may reuse.
import torch

model = torch.nn.Linear(8, 8).cuda()
static_x = torch.randn(4, 8, device="cuda")
static_m = torch.ones(4, 8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = model(static_x) * static_m

del static_m  # expected-error {{graph-uses-freed-memory}}
# CHECK-MESSAGES@-1: deleting it frees its memory
# CHECK-NOTES@-2: the capture region begins here
torch.cuda.empty_cache()
g.replay()

for step in range(3):
    g.replay()
    out = static_y.clone()
    del out, static_x  # expected-error {{graph-uses-freed-memory}}
    # CHECK-MESSAGES@-1: Keep 'static_x' alive while the graph replays
