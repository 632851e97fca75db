# Clean: zero_grad(set_to_none=True) before every backward.
import torch
torch.manual_seed(0)
H = 64
m = torch.nn.Linear(H, H).cuda()
opt = torch.optim.SGD(m.parameters(), lr=0.1)
gm = torch.cuda.make_graphed_callables(m, (torch.randn(8, H, device="cuda", requires_grad=True),))
for _ in range(3):
    opt.zero_grad(set_to_none=True)
    m.zero_grad(set_to_none=True)
    gm(torch.randn(8, H, device="cuda", requires_grad=True)).pow(2).sum().backward()
    opt.step()
torch.cuda.synchronize()
print("done", round(m.weight.sum().item(), 3))
