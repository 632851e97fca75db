# expect: grad-aliases-graph-buffer at 13
# expect: grad-aliases-graph-buffer at 13
# (one finding each for weight.grad and bias.grad)
# Gradient accumulation through make_graphed_callables (PyTorch issue 181723).
import torch
torch.manual_seed(0)
H = 64
m = torch.nn.Linear(H, H).cuda()
ref = torch.nn.Linear(H, H).cuda(); ref.load_state_dict(m.state_dict())
gm = torch.cuda.make_graphed_callables(m, (torch.randn(8, H, device="cuda", requires_grad=True),))
xs = [torch.randn(8, H, device="cuda", requires_grad=True) for _ in range(3)]
for x in xs:
    gm(x).pow(2).sum().backward()
for x in xs:
    ref(x).pow(2).sum().backward()
torch.cuda.synchronize()
print("max |graphed - eager| weight.grad:", round((m.weight.grad - ref.weight.grad).abs().max().item(), 3))
