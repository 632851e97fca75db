# The host code around kernel-language launches is still captured host code:
# a sync there is reported, and so is one in a plain helper the launcher
# calls (only the decorated kernels are device code).
import cutlass.cute as cute
import torch
import triton
import triton.language as tl


@cute.kernel
def copy_kernel(src: cute.Tensor, dst: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    dst[tidx] = src[tidx]


@cute.jit
def copy_launch(src: cute.Tensor, dst: cute.Tensor):
    copy_kernel(src, dst).launch(grid=[1, 1, 1], block=[128, 1, 1])


@triton.jit
def add_one(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1, mask=offs < n)


def grid_for(x):
    return (int(x.max().item()),)  # expected-error {{sync-tensor-read}}


def step(src, dst: torch.Tensor):
    copy_launch(src, dst)
    add_one[grid_for(dst)](dst, dst.numel(), BLOCK=128)
    if dst.sum() > 0:  # expected-error {{data-dependent-branch}}
        dst.zero_()


def capture(src, dst):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        step(src, dst)
    return g
