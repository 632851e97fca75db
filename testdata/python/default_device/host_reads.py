# With the default device set to the GPU, a tensor made without a device is
# made there: reading it on the host syncs.
import torch

torch.set_default_device("cuda")


def reshape_received(buffer: torch.Tensor, expected_shape: tuple):
    num_elements = torch.prod(torch.tensor(expected_shape)).item()  # expected-error {{sync-tensor-read}}
    offsets = torch.cumsum(torch.tensor([4, 8]), 0).tolist()  # expected-error {{sync-tensor-read}}
    # `.cpu()` copies to the host whatever the default device: the copy is
    # the sync, and reading the copy is not.
    first = buffer.cpu()[0]  # expected-error {{sync-device-to-host-copy}}
    head = int(first)
    return buffer.flatten()[:num_elements], offsets, head


def step(buffer):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = reshape_received(buffer, (2, 4))
    return g, out


def init_under_device(n):
    with torch.device("cuda"):
        return torch.zeros(n)
