# Keeping an output across a later replay of the same graph.
import torch

model = torch.nn.Linear(8, 8).cuda()
static_x = torch.randn(4, 8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = model(static_x)

outputs = []
for step in range(5):
    g.replay()
    outputs.append(static_y)  # expected-error {{read-after-overwrite}}

g.replay()
first = static_y.view(-1)
g.replay()
second = static_y.clone()
diff = (first - second).abs()  # expected-error {{read-after-overwrite}}
