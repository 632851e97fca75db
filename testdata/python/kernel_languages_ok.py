# expected-no-diagnostics
# Kernels written in Python kernel languages, launched under capture: their
# bodies are compiled for the GPU (CuTe DSL, Triton, Numba CUDA), never run
# as host Python, so a branch on a loaded value or an `.item()`-like call in
# them is device code, not a host sync.
import cutlass
import cutlass.cute as cute
import torch
import triton
import triton.language as tl
from numba import cuda


@cute.kernel
def decode_kernel(g_offsets: cute.Tensor, g_out: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    offset = g_offsets[tidx].to(cutlass.Int32)
    offset = cutlass.Int32(0) if offset < 0 else offset
    if offset > 0:
        g_out[tidx] = g_offsets[offset]


@cute.jit
def decode_launch(g_offsets: cute.Tensor, g_out: cute.Tensor):
    decode_kernel(g_offsets, g_out).launch(grid=[1, 1, 1], block=[128, 1, 1])


@triton.autotune(configs=[triton.Config({"BLOCK": 128})], key=["n"])
@triton.jit
def scale_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if tl.max(x, axis=0) > 0:
        tl.store(x_ptr + offs, x * 2, mask=offs < n)


@cuda.jit
def clamp_kernel(x):
    i = cuda.grid(1)
    if x[i] < 0:
        x[i] = 0


def step(offsets, out, x):
    decode_launch(offsets, out)
    scale_kernel[(1,)](x, x.numel())
    clamp_kernel[1, 128](x)
    return out


def capture(offsets, out, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        step(offsets, out, x)
    return g
