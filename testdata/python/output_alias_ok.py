# expected-no-diagnostics
# Clones and host values survive later replays; reading the static output itself is the point.
import torch

model = torch.nn.Linear(8, 8).cuda()
static_x = torch.randn(4, 8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = model(static_x)

outputs = []
losses = []
for step in range(5):
    g.replay()
    out = static_y
    losses.append(out.sum().item())
    outputs.append(static_y.clone())

g.replay()
first = static_y.clone()
g.replay()
diff = (first - static_y).abs()
