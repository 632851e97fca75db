# expect: eager-write-lost-at-replay
# graphcheck: --mode light
# graphcheck: --mode verify
# A running metric that aliases the graph's static loss: `running = loss`
# keeps the graph's buffer, `running += loss` writes into it eagerly, and the
# next replay overwrites the running total. Light mode learns that the eager
# add writes the buffer from its first launches; verify mode from all.
import torch
torch.manual_seed(0)
m = torch.nn.Linear(16, 1).cuda()
x = torch.randn(8, 16, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s), torch.no_grad():
    for _ in range(3):
        m(x).pow(2).mean()
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g), torch.no_grad():
    static_loss = m(x).pow(2).mean()
running = None
with torch.no_grad():
    for step in range(4):
        x.copy_(torch.randn(8, 16, device="cuda"))
        g.replay()
        if running is None:
            running = static_loss  # Bug: keeps the graph's buffer, not a copy.
        else:
            running += static_loss
torch.cuda.synchronize()
print("running total is finite:", bool(torch.isfinite(running).item()))
