# expected-no-diagnostics
# Loading copies into the tensors the graph holds; state loaded before capture
# is what the graph captures.
import torch

model = torch.nn.Linear(8, 8).cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-3, capturable=True)
checkpoint = torch.load("ckpt.pt")
opt.load_state_dict(checkpoint["opt"])
static_x = torch.randn(4, 8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    loss = model(static_x).sum()
    loss.backward()
    opt.step()

model.load_state_dict(checkpoint["model"])
static_x.copy_(torch.randn(4, 8, device="cuda"))
for _ in range(10):
    g.replay()
# After the last replay nothing reads the old memory.
static_x.resize_(16, 8)
