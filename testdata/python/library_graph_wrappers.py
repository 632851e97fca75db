# Libraries' own CUDA graph wrappers capture the callable they are given
# after eager warm-up calls: tensordict's CudaGraphModule (torchrl's
# `cfg.compile.cudagraphs`), Transformer Engine's make_graphed_callables,
# Triton's do_bench_cudagraph (kernel benchmarks: the callable is captured).
import torch
import transformer_engine.pytorch as te
import triton
from tensordict.nn import CudaGraphModule
from triton.testing import do_bench_cudagraph


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


class GroupedGemm:
    def quantize(self, x, sizes):
        parts = []
        for i in range(sizes.shape[0]):
            if sizes[i].item() != 0:  # expected-error {{sync-tensor-read}}
                parts.append(x[i])
        return parts

    def compute(self, x, w):
        return x @ w


def bench(op, x, w, sizes):
    quantize_ms = triton.testing.do_bench_cudagraph(lambda: op.quantize(x, sizes), rep=200)
    compute_ms = do_bench_cudagraph(lambda: op.compute(x, w))
    return quantize_ms, compute_ms


def run_bench(x, w, sizes):
    return bench(GroupedGemm(), x, w, sizes)
