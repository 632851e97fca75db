# Libraries' own CUDA graph wrappers capture the callable they are given
# after eager warm-up calls: tensordict's CudaGraphModule (torchrl's
# `cfg.compile.cudagraphs`), Transformer Engine's make_graphed_callables.
import torch
import transformer_engine.pytorch as te
from tensordict.nn import CudaGraphModule


def update(batch, model, optimizer):
    loss = torch.nn.functional.mse_loss(model(batch), batch)
    loss.backward()
    optimizer.step()
    print(f"loss {loss}")  # expected-error {{sync-print-tensor}} expected-warning {{host-io-in-capture}}
    return loss.detach()


class Block(torch.nn.Module):
    def forward(self, x):
        return x[x > 0]  # expected-error {{boolean-mask-indexing}}


def main(model, optimizer, loader):
    step = CudaGraphModule(update, warmup=5)
    for batch in loader:
        step(batch, model, optimizer)
    # Each call hands back a copy: keeping one across calls is fine.
    first = step(batch, model, optimizer)
    second = step(batch, model, optimizer)
    print(first + second)
    graphed = te.make_graphed_callables(Block(), (torch.zeros(4, device="cuda"),))
    return graphed
