# expect: read-after-overwrite
# Calling a graphed module twice before using the first output: the first
# output silently holds the second call's values.
import torch
torch.manual_seed(0)
m = torch.nn.Linear(32, 32).cuda()
gm = torch.cuda.make_graphed_callables(m, (torch.randn(4, 32, device="cuda"),))
with torch.no_grad():
    a = gm(torch.ones(4, 32, device="cuda"))
    b = gm(torch.zeros(4, 32, device="cuda"))
    # torch.equal would short-cut on the shared storage; a subtraction reads a.
    print("a equals b:", (a - b).abs().max().item() == 0)
