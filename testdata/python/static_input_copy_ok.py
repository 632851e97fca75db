# expected-no-diagnostics
# The documented way: copy new data into the static input; rebinding after the last replay is fine.
import torch

model = torch.nn.Linear(8, 8).cuda()
static_x = torch.randn(4, 8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = model(static_x)

for batch in [torch.randn(4, 8) for _ in range(3)]:
    static_x.copy_(batch)
    g.replay()
    result = static_y.clone()
static_x = None


def deleted_after_the_last_replay():
    static_in = torch.randn(4, 8, device="cuda")
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_out = model(static_in)
    graph.replay()
    result = static_out.clone()
    del static_in, static_out, graph  # Nothing replays after this.
    scale = 2.0
    return result * scale


def viewed_between_replays():
    # A view of the static input shares its memory and keeps it alive:
    # filling the view fills what the graph reads.
    static_kv = torch.randn(4, 8, device="cuda")
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_out = model(static_kv)
    for batch in [torch.randn(4, 8) for _ in range(2)]:
        static_kv = static_kv.view(2, 2, 8)
        static_kv.copy_(batch.view(2, 2, 8))
        static_kv = static_kv.view(4, 8)
        graph.replay()
    return static_out.clone()
