# Rebinding a static input after capture: replays keep reading the old tensor.
import torch

model = torch.nn.Linear(8, 8).cuda()
static_x = torch.randn(4, 8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = model(static_x)

for batch in [torch.randn(4, 8) for _ in range(3)]:
    static_x = batch.cuda()  # expected-error {{graph-uses-freed-memory}}
    # CHECK-MESSAGES@-1: Copy into it instead
    # CHECK-NOTES@-2: the capture region begins here
    g.replay()


def rebound_to_a_copy():
    # `.contiguous()` and `.clone()` may copy: the graph's memory is let go.
    static_kv = torch.randn(4, 8, device="cuda").t()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_out = model(static_kv.t())
    static_kv = static_kv.clone()  # expected-error {{graph-uses-freed-memory}}
    graph.replay()
    return static_out
