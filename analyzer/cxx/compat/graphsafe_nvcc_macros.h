// Forced into CUDA parses after clang's CUDA wrapper: what nvcc provides and
// clang 19 does not, so headers written for nvcc parse.
#pragma once

// nvcc defines __CUDACC__ as 1, clang's wrapper as empty, and headers test it
// with `#if __CUDACC__` (NCCL's device headers do), which clang then rejects.
#undef __CUDACC__
#define __CUDACC__ 1

// Cache-hinted loads and stores (sm_32_intrinsics.h) that clang 19's CUDA
// headers leave out. Only declared: graphlint does not analyse device code.
#if defined(__clang__) && __clang_major__ < 20
template <typename T> __device__ T __ldcg(const T *);
template <typename T> __device__ T __ldca(const T *);
template <typename T> __device__ T __ldcs(const T *);
template <typename T> __device__ T __ldlu(const T *);
template <typename T> __device__ T __ldcv(const T *);
template <typename T, typename V> __device__ void __stwb(T *, V);
template <typename T, typename V> __device__ void __stcg(T *, V);
template <typename T, typename V> __device__ void __stcs(T *, V);
template <typename T, typename V> __device__ void __stwt(T *, V);
#endif
