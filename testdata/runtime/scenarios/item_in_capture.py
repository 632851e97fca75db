# expect: sync-during-capture at 10
# .item() inside torch.cuda.graph: PyTorch only says the capture failed.
import torch
x = torch.ones(4, device="cuda")
s = torch.cuda.Stream()
g = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(g):
        y = x * 2
        v = y.sum().item()
except Exception as e:
    print("capture failed as expected")
