# State the graph points into, swapped for new memory after capture: replays
# keep reading (and writing) the old memory.
import torch

model = torch.nn.Linear(8, 8).cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-3, capturable=True)
static_x = torch.randn(4, 8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    loss = model(static_x).sum()
    loss.backward()
    opt.step()

checkpoint = torch.load("ckpt.pt")
model.load_state_dict(checkpoint["model"], assign=True)  # expected-error {{graph-uses-freed-memory}}
opt.load_state_dict(checkpoint["opt"])  # expected-error {{graph-uses-freed-memory}}
static_x.resize_(16, 8)  # expected-error {{graph-uses-freed-memory}}
for _ in range(10):
    g.replay()
