# expected-no-diagnostics
# Synchronizing before capture and after replay is how graphs are used.
import torch

static_x = torch.zeros(4, device="cuda")
torch.cuda.synchronize()
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_x.add_(1)
g.replay()
torch.cuda.synchronize()
torch.cuda.current_stream().synchronize()
