# zero_grad() (set_to_none=True by default) between replays of a captured backward.
import torch

model = torch.nn.Linear(8, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
static_x = torch.randn(4, 8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_loss = model(static_x).sum()
    static_loss.backward()

for step in range(10):
    opt.zero_grad()  # expected-error {{graph-uses-freed-memory}}
    g.replay()
    opt.step()
    model.weight.grad = None  # expected-error {{graph-uses-freed-memory}}
