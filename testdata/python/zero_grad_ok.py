# expected-no-diagnostics
# Grads zeroed in place (set_to_none=False), or set to None before capture as the docs do.
import torch

model = torch.nn.Linear(8, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
static_x = torch.randn(4, 8, device="cuda")
opt.zero_grad(set_to_none=True)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_loss = model(static_x).sum()
    static_loss.backward()

for step in range(10):
    opt.zero_grad(set_to_none=False)
    g.replay()
    opt.step()
