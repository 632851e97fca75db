# expect: graph-uses-freed-memory at 22
# graphcheck: --mode light
# graphcheck: --mode verify
# The static input is rebound inside torch.no_grad() (an evaluation loop)
# instead of copied into: the graph keeps reading the old, freed block.
import torch
torch.manual_seed(0)
m = torch.nn.Linear(64, 64).cuda().eval()
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
outs = []
with torch.no_grad():
    for step in range(3):
        static_x = torch.randn(32, 64, device="cuda") * (step + 1)  # Bug: copy_ instead
        g.replay()
        outs.append(round(static_y.sum().item(), 2))
print("outputs follow the data:", len(set(outs)) == len(outs))
