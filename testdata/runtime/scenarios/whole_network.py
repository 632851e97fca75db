# Clean: the PyTorch docs' whole-network capture. .grad is allocated inside
# the capture and refilled by every replay, by design.
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8)).cuda()
loss_fn = torch.nn.MSELoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
static_x = torch.randn(16, 64, device="cuda")
static_y = torch.randn(16, 8, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(3):
        opt.zero_grad(set_to_none=True)
        loss_fn(model(static_x), static_y).backward()
        opt.step()
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
opt.zero_grad(set_to_none=True)
with torch.cuda.graph(g):
    static_loss = loss_fn(model(static_x), static_y)
    static_loss.backward()
    opt.step()
for _ in range(5):
    static_x.copy_(torch.randn(16, 64, device="cuda"))
    g.replay()
torch.cuda.synchronize()
print("loss finite:", bool(torch.isfinite(static_loss).item()))
