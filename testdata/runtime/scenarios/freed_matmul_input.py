# expect: graph-uses-freed-memory at 20
# graphcheck: --mode light
# graphcheck: --mode verify
# The static input of a captured matmul (cuBLAS) is deleted, the cache
# emptied and a tensor of the same size allocated, then the graph replays:
# it multiplies whatever now lives where the input was.
import torch
torch.manual_seed(0)
w = torch.randn(512, 512, device="cuda")
static_in = torch.randn(512, 512, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(2):
        static_in @ w
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_out = static_in @ w
del static_in
torch.cuda.empty_cache()
other = torch.ones(512, 512, device="cuda")
g.replay()
torch.cuda.synchronize()
print("replayed; output sum is finite:", bool(torch.isfinite(static_out.sum()).item()))
