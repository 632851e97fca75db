# expect: read-after-overwrite
# graphcheck: --mode light
# graphcheck: --mode verify
# One make_graphed_callables call with two callables: their graphs share one
# memory pool, and PyTorch requires them to run in the order they were graphed.
# a's temporaries (freed at the end of its capture) are where the pool puts
# b's output. Called b then a, a's replay overwrites b's output before it is read.
import torch
torch.manual_seed(0)
D = 1024


class A(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(D, D)

    def forward(self, x):
        out = self.lin(x)
        t = x * 3  # a temporary: freed when forward returns
        return out + t.sum() * 0


a = A().cuda()
b = torch.nn.Linear(D, D).cuda()
xa = torch.randn(64, D, device="cuda", requires_grad=True)
xb = torch.randn(64, D, device="cuda", requires_grad=True)
ga, gb = torch.cuda.make_graphed_callables((a, b), ((xa,), (xb,)))
with torch.no_grad():
    want = b(xb).sum().item()
ok = []
for step in range(3):
    out_b = gb(xb)  # Bug: b runs before a, against the order they were graphed in
    out_a = ga(xa)
    # b's output was overwritten by a's replay.
    keep = out_a.detach()
    got = out_b.sum().item()
    ok.append(abs(got - want) < 1e-2 * max(1.0, abs(want)))
print("b output correct:", all(ok))
