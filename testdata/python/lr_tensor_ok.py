# A program that keeps its learning rates in tensors (it sets each param
# group's 'lr' in place with a tensor method, as fused LAMB/Adam variants with
# capturable schedules do): reading a group's 'lr' under capture reads the
# tensor the replays will see, and bakes no host scalar.
# expected-no-diagnostics
import torch

model = torch.nn.Linear(8, 8).cuda()
opt = torch.optim.AdamW(model.parameters(), lr=torch.tensor(1e-3, device="cuda"), capturable=True)
for group in opt.param_groups:
    group["lr"].fill_(2e-3)

stats = {}
static_x = torch.randn(4, 8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    model(static_x).sum().backward()
    opt.step()
    stats["lr"] = opt.param_groups[0]["lr"]
