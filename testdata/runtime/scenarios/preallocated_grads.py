# Clean: grads preallocated and zeroed in place (set_to_none=False), so
# AccumulateGrad adds the graph's buffer into them instead of adopting it.
import torch
torch.manual_seed(0)
H = 64
m = torch.nn.Linear(H, H).cuda()
for p in m.parameters():
    p.grad = torch.zeros_like(p)
gm = torch.cuda.make_graphed_callables(m, (torch.randn(8, H, device="cuda", requires_grad=True),))
for _ in range(3):
    gm(torch.randn(8, H, device="cuda", requires_grad=True)).pow(2).sum().backward()
m.zero_grad(set_to_none=False)
torch.cuda.synchronize()
print("grad zero:", bool((m.weight.grad == 0).all().item()))
