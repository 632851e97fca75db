"""A training loop of many small eager kernels around one graphed module, for
graphcheck's light-mode overhead: each step runs a graphed encoder, then an
eager head, loss, backward and a per-parameter (foreach=False) optimizer
step, a few hundred kernel launches in all. Prints the loop's own time and its
fastest 50-step chunk, scaled to the loop."""
import sys

import torch
from looptiming import time_loop

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 500
torch.manual_seed(0)
encoder = torch.nn.Sequential(*[torch.nn.Linear(128, 128) for _ in range(4)]).cuda()
head = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(128, 128), torch.nn.GELU(),
                                                 torch.nn.LayerNorm(128)) for _ in range(12)],
                           torch.nn.Linear(128, 1)).cuda()
opt = torch.optim.AdamW(list(encoder.parameters()) + list(head.parameters()), lr=1e-4,
                        foreach=False)
encoder = torch.cuda.make_graphed_callables(encoder, (torch.randn(64, 128, device="cuda",
                                                                  requires_grad=True),))
# No requires_grad: x.grad would then be the backward graph's static grad
# buffer, accumulated into eagerly and overwritten by the next replay (a real
# hazard graphcheck reports), and the loop should be a correct one.
x = torch.randn(64, 128, device="cuda")
y = torch.randn(64, 1, device="cuda")


def step():
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.mse_loss(head(encoder(x)), y)
    loss.backward()
    opt.step()
    return loss


for _ in range(5):
    step()
time_loop(step, steps)
