# expect: graph-uses-freed-memory at 23
# graphcheck: --mode light
# graphcheck: --mode verify
# The static input is rebound (`static_x = batch.cuda()`) instead of copied
# into: the graph keeps reading the old, freed block and its output never
# follows the data.
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
    static_y = torch.relu(m(static_x))
sums = []
for step in range(3):
    batch = torch.randn(32, 64) * (step + 1)
    static_x = batch.cuda()  # Bug: should be static_x.copy_(batch)
    g.replay()
    sums.append(round(static_y.sum().item(), 2))
print("outputs follow the data:", len(set(sums)) == len(sums))
