# Clean: each output is used before the next call, as in a training loop.
import torch
torch.manual_seed(0)
m = torch.nn.Linear(32, 32).cuda()
opt = torch.optim.SGD(m.parameters(), lr=0.01)
gm = torch.cuda.make_graphed_callables(m, (torch.randn(4, 32, device="cuda", requires_grad=True),))
for step in range(5):
    opt.zero_grad(set_to_none=True)
    loss = gm(torch.randn(4, 32, device="cuda", requires_grad=True)).pow(2).mean()
    loss.backward()
    opt.step()
torch.cuda.synchronize()
print("loss", round(loss.item(), 3) > 0)
