# expect: graph-uses-freed-memory at 20
# graphcheck: --mode light
# graphcheck: --mode verify
# The static input is resize_()d to a bigger batch after capture: the storage
# moves to a new block and the old one is freed, but the graph keeps reading
# the old block.
import torch
torch.manual_seed(0)
m = torch.nn.Linear(64, 64).cuda()
static_x = torch.randn(32, 64, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s), torch.no_grad():
    for _ in range(3):
        m(static_x)
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g), torch.no_grad():
    static_y = m(static_x)
static_x.resize_(4096, 64)  # Bug: a bigger batch needs its own graph
static_x.normal_()
g.replay()
torch.cuda.synchronize()
print("replayed", tuple(static_y.shape))
