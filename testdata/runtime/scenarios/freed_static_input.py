# expect: graph-uses-freed-memory at 15
# graphcheck: --mode light
# graphcheck: --mode verify
# The static input is deleted and the cache emptied, then the graph replays.
import torch
static_in = torch.ones(1 << 20, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    static_in * 2
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_out = static_in * 2
del static_in
torch.cuda.empty_cache()
g.replay()
torch.cuda.synchronize()
print("replayed")
