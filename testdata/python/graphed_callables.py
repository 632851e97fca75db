# make_graphed_callables captures a module's forward and what it calls, and plain functions.
import torch
from torch.cuda import make_graphed_callables


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)
        self.calls = 0

    def forward(self, x):
        self.calls += 1  # expected-warning {{host-state-mutation}}
        return self.norm(self.lin(x))

    def norm(self, y):
        return y / y.norm().item()  # expected-error {{sync-tensor-read}}
        # CHECK-NOTES@-1: is called here under capture


def loss_fn(y):
    if y.mean() > 0:  # expected-error {{data-dependent-branch}}
        return y.sum()
    return -y.sum()


block = Block().cuda()
sample = torch.randn(4, 8, device="cuda", requires_grad=True)
graphed_block, graphed_loss = make_graphed_callables((block, loss_fn), ((sample,), (sample,)))
