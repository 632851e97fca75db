# A graphed callable replays into the same output memory at every call: an
# output kept from one call and read after the next holds the later values.
import torch
from torch.cuda import make_graphed_callables

encoder = torch.nn.Linear(8, 8).cuda()
head = torch.nn.Linear(8, 1).cuda()
sample = torch.randn(4, 8, device="cuda", requires_grad=True)
encoder, head = make_graphed_callables((encoder, head), ((sample,), (sample,)))

with torch.no_grad():
    a = encoder(torch.ones(4, 8, device="cuda"))
    b = encoder(torch.zeros(4, 8, device="cuda"))
    print((a - b).abs().max())  # expected-error {{read-after-overwrite}}
    # CHECK-MESSAGES@-1: 'a' holds an output of 'encoder' (make_graphed_callables at line 9)

    first = encoder(torch.ones(4, 8, device="cuda"))[0].view(-1)
    head(torch.ones(4, 8, device="cuda"))  # Another callable: its own outputs.
    print(first.sum())


def compare_steps(batches):
    prev = None
    for x in batches:
        out = encoder(x)
        if prev is not None:
            print((out - prev).abs().max())  # expected-error {{read-after-overwrite}}
        prev = out


class Trainer:
    def __init__(self, model, sample):
        self.step = make_graphed_callables(model, (sample,))

    def two_views(self, x, y):
        u = self.step(x)
        v = self.step(y)
        return u + v  # expected-error {{read-after-overwrite}}


# Fine: each output is used, or copied, before the next call.
def train(batches, opt):
    for x, y in batches:
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(head(encoder(x)), y)
        loss.backward()
        opt.step()


def copies(x, y):
    kept = encoder(x).clone()
    other = encoder(y)
    return kept - other


def rebinds(x, y):
    out = encoder(x)
    total = out.sum()
    out = encoder(y)
    return total + out.sum()
