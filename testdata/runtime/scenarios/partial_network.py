# The PyTorch documentation's partial-network capture: two modules graphed
# with make_graphed_callables, one left eager, ordinary optimizer steps with
# grads zeroed by set_to_none. Clean.
import torch
torch.manual_seed(0)
N, D_in, H, D_out = 64, 128, 64, 8
module1 = torch.nn.Linear(D_in, H).cuda()
module2 = torch.nn.Linear(H, D_out).cuda()
module3 = torch.nn.Linear(H, D_out).cuda()
loss_fn = torch.nn.MSELoss()
optimizer = torch.optim.SGD(list(module1.parameters()) + list(module2.parameters()) +
                            list(module3.parameters()), lr=0.1)
x = torch.randn(N, D_in, device="cuda")
h = torch.randn(N, H, device="cuda", requires_grad=True)
module1 = torch.cuda.make_graphed_callables(module1, (x,))
module2 = torch.cuda.make_graphed_callables(module2, (h,))
for i in range(6):
    optimizer.zero_grad(set_to_none=True)
    data = torch.randn(N, D_in, device="cuda"); target = torch.randn(N, D_out, device="cuda")
    tmp = module1(data)
    out = module2(tmp) if i % 2 == 0 else module3(tmp)
    loss = loss_fn(out, target)
    loss.backward()
    optimizer.step()
torch.cuda.synchronize()
print("loss finite:", bool(torch.isfinite(loss).item()))
