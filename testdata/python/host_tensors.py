# A tensor made on the host and read on the host needs no GPU: no sync.
# Made without a device from data that is no tensor (a shape, a list, a
# number), by torch.from_numpy or a legacy CPU type, or by `.cpu()`, and
# what torch code makes of such tensors alone (also where a module may run
# under a default device: `.cpu()` copies to the host whatever the default). A factory given a device, a
# tensor of unknown place, or a host tensor moved with `.to()`/`.cuda()`
# stays a device read.
import numpy as np
import torch


def reshape_received(buffer, expected_shape: tuple):
    num_elements = torch.prod(torch.tensor(expected_shape)).item()
    sizes = torch.tensor([4, 8, 16])
    pairs = torch.tensor([(1, 2), (3, 4)]).sum().item()
    offsets = torch.cumsum(sizes, 0).tolist()
    count = int(torch.arange(8).sum())
    table = torch.from_numpy(np.ones(4)).max().item()
    legacy = torch.LongTensor([1, 2]).sum().item()
    masked = (sizes > 4).nonzero()
    # A device said to be the host, as a string, torch.device or a local.
    flags = torch.empty(7, dtype=torch.int32, device="cpu")
    ready = int(flags[6].item())
    cpu = torch.device("cpu")
    zeros = torch.zeros(3, device=cpu).sum().item()
    pinned = torch.ones(2, device="cpu:0", pin_memory=True).tolist()
    return (buffer.flatten()[:num_elements], offsets, count, table, legacy, masked, pairs, ready,
            zeros, pinned)


def device_reads(x, shape, place):
    a = torch.tensor([1, 2], device="cuda").sum().item()  # expected-error {{sync-tensor-read}} expected-error {{sync-pageable-upload}}
    b = torch.tensor(x).sum().item()  # expected-error {{sync-tensor-read}}
    c = torch.tensor(shape).cuda().prod().item()  # expected-error {{sync-tensor-read}}
    d = (torch.arange(4) + x).max().item()  # expected-error {{sync-tensor-read}}
    e = torch.zeros_like(x).sum().item()  # expected-error {{sync-tensor-read}}
    f = x.add(torch.arange(4)).max().item()  # expected-error {{sync-tensor-read}}
    # A list of device values is read one by one on the host to build it.
    g = torch.tensor([x.max(), x.min()]).tolist()  # expected-error {{sync-tensor-read}}
    # A device that is not said to be the host may be the GPU; a copy to the
    # host is the sync, and what is read of it after is host memory.
    h = torch.zeros(3, device=torch.device("cuda")).sum().item()  # expected-error {{sync-tensor-read}}
    i = torch.zeros(3, device=place).sum().item()  # expected-error {{sync-tensor-read}}
    j = x.to("cpu").sum().item()  # expected-error {{sync-device-to-host-copy}}
    return a, b, c, d, e, f, g, h, i, j


# A copy to the host is the one sync; what is read of the copy after it,
# unpacked or tested, reads host memory.
def read_copy(buf: torch.Tensor):
    host = buf.cpu()  # expected-error {{sync-device-to-host-copy}}
    blocks, groups = host[:1].view(dtype=torch.int32)
    total = int(blocks) * int(groups)
    for i in range(1, len(host)):
        if host[i] == 0:
            continue
        total += 1
    if buf[0] == 0:  # expected-error {{data-dependent-branch}}
        total += 1
    return total


# A helper whose every return is a tensor its own code made on the host
# hands back host memory; one that may return a device tensor, or what it
# was given, does not.
def host_config():
    out = torch.empty(7, dtype=torch.int32, device="cpu")
    out.fill_(1)
    return out


def device_config(on_gpu):
    if on_gpu:
        return torch.ones(7, device="cuda")
    return torch.ones(7, device="cpu")


def passed_through(t):
    return t


def configs(x):
    a = int(host_config()[0].item())
    b = device_config(True)[0].item()  # expected-error {{sync-tensor-read}}
    c = passed_through(x)[0].item()  # expected-error {{sync-tensor-read}}
    return a, b, c


def step(buffer, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = reshape_received(buffer, (2, 4))
        more = device_reads(x, [2, 4], x.device)
        total = read_copy(x)
        settings = configs(x)
    return g, out, more, total, settings
