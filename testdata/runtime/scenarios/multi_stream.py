# Capture that forks onto a second stream and joins back before the capture
# ends (the documented multi-stream pattern). Clean.
import torch
torch.manual_seed(0)
a = torch.randn(256, 256, device="cuda"); b = torch.randn(256, 256, device="cuda")
side = torch.cuda.Stream()
for _ in range(2):  # warm up the kernels outside capture
    (a @ b).relu(); (a + b).sigmoid()
torch.cuda.synchronize()
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    side.wait_stream(torch.cuda.current_stream())
    x = a @ b
    with torch.cuda.stream(side):
        y = (a + b).sigmoid()
    torch.cuda.current_stream().wait_stream(side)
    out = x.relu() + y
for _ in range(4):
    a.copy_(torch.randn(256, 256, device="cuda"))
    g.replay()
torch.cuda.synchronize()
print("out finite:", bool(torch.isfinite(out).all().item()))
