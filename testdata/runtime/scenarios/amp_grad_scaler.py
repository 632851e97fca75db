# Clean: the documented AMP pattern. Forward and scaled backward are
# captured; GradScaler.step and update run eagerly after each replay,
# unscaling the graph-owned grads in place, and the optimizer reads them
# before the next replay overwrites them.
# graphcheck: --mode light
# graphcheck: --mode verify
import torch
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1)).cuda()
opt = torch.optim.SGD(m.parameters(), lr=0.01)
scaler = torch.amp.GradScaler("cuda")
x = torch.randn(32, 64, device="cuda")
y = torch.randn(32, 1, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(3):
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.float16):
            loss = torch.nn.functional.mse_loss(m(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
torch.cuda.current_stream().wait_stream(s)
opt.zero_grad(set_to_none=True)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    with torch.autocast("cuda", dtype=torch.float16):
        static_loss = torch.nn.functional.mse_loss(m(x), y)
    scaler.scale(static_loss).backward()
for _ in range(5):
    x.copy_(torch.randn(32, 64, device="cuda"))
    g.replay()
    scaler.step(opt)
    scaler.update()
torch.cuda.synchronize()
print("loss finite:", bool(torch.isfinite(static_loss).item()))
