# expect: graph-uses-freed-memory at 30
# expect: graph-uses-freed-memory at 30
# expect: graph-uses-freed-memory at 30
# expect: graph-uses-freed-memory at 30
# graphcheck: --mode light
# graphcheck: --mode verify
# (one per freed .grad block: two weights, two biases)
# Whole-network capture after a warm-up that left every .grad allocated: the
# captured backward accumulates into those blocks. optimizer.zero_grad()
# (set_to_none, the default) between replays frees them; the replays write
# freed memory and the optimizer, seeing None, updates nothing.
import torch
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)).cuda()
opt = torch.optim.SGD(m.parameters(), lr=0.1)
x = torch.randn(16, 32, device="cuda")
y = torch.randn(16, 1, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(3):
        torch.nn.functional.mse_loss(m(x), y).backward()
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_loss = torch.nn.functional.mse_loss(m(x), y)
    static_loss.backward()
before = m[0].weight.detach().clone()
for _ in range(3):
    opt.zero_grad()  # Bug: frees the .grad blocks the graph accumulates into.
    g.replay()
    opt.step()
torch.cuda.synchronize()
print("weights changed:", not torch.equal(before, m[0].weight))
