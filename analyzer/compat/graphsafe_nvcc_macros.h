// Forced into CUDA parses after clang's CUDA wrapper: nvcc defines __CUDACC__
// as 1, clang's wrapper as empty, and headers written for nvcc test it with
// `#if __CUDACC__` (NCCL's device headers do), which clang then rejects.
#pragma once
#undef __CUDACC__
#define __CUDACC__ 1
