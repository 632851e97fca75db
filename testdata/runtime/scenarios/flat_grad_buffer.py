# Whole-network capture with gradients as views into one flat buffer,
# zeroed inside the graph (a common DDP/ZeRO layout): the graph refills the
# grads at every replay by design. Clean.
import torch
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)).cuda()
flat = torch.zeros(sum(p.numel() for p in m.parameters()), device="cuda")
offset = 0
for p in m.parameters():
    p.grad = flat[offset:offset + p.numel()].view_as(p)
    offset += p.numel()
opt = torch.optim.SGD(m.parameters(), lr=0.01)
x = torch.randn(16, 32, device="cuda"); y = torch.randn(16, 1, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(3):
        flat.zero_()
        torch.nn.functional.mse_loss(m(x), y).backward()
        opt.step()
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    flat.zero_()
    loss = torch.nn.functional.mse_loss(m(x), y)
    loss.backward()
    opt.step()
for i in range(5):
    x.copy_(torch.randn(16, 32, device="cuda")); y.copy_(torch.randn(16, 1, device="cuda"))
    g.replay()
torch.cuda.synchronize()
print("loss finite:", bool(torch.isfinite(loss).item()))
