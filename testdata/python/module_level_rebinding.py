# A script's module-level code wraps a function it defines under the same
# name (`update = CudaGraphModule(update)`, often after `torch.compile`):
# the name in the wrapper's argument is still the def.
import torch
from tensordict.nn import CudaGraphModule


def update(batch):
    return batch.sum().item()  # expected-error {{sync-tensor-read}}


if __name__ == "__main__":
    update = torch.compile(update)
    update = CudaGraphModule(update)
    update(torch.ones(3, device="cuda"))
