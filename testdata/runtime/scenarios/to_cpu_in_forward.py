# expect: sync-during-capture at 17
# Activation offload inside a captured forward: `.to("cpu")` copies to
# pageable host memory and synchronizes, which capture forbids. PyTorch's
# error names no line; graphcheck names this file's line 17.
import torch
torch.manual_seed(0)
m = torch.nn.Linear(16, 16).cuda()
x = torch.randn(8, 16, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    m(x)
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(g):
        h = m(x); saved = h.to("cpu")
    print("captured")
except RuntimeError as e:
    print("capture failed:", type(e).__name__)
