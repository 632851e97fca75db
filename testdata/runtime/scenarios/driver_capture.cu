// expect: graph-uses-freed-memory
// graphcheck: --mode light
// graphcheck: --mode verify
// The driver API path: memory from cuMemAlloc, capture with
// cuStreamBeginCapture, launch with cuGraphLaunch. The input is freed with
// cuMemFree and its address reused by a new allocation before the replay:
// the kernel reads memory that is no longer the graph's.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void add(float *Out, const float *In, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] += In[I];
}

int main() {
  const int N = 1 << 14;
  cudaFree(nullptr); // Create the primary context the driver calls use.
  CUdeviceptr In, Out;
  cuMemAlloc(&In, N * sizeof(float));
  cuMemAlloc(&Out, N * sizeof(float));
  cuMemsetD32(In, 0, N);
  cuMemsetD32(Out, 0, N);
  CUstream S;
  cuStreamCreate(&S, CU_STREAM_NON_BLOCKING);
  CUgraph G;
  CUgraphExec X;
  cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL);
  add<<<N / 256, 256, 0, reinterpret_cast<cudaStream_t>(S)>>>(
      reinterpret_cast<float *>(Out), reinterpret_cast<const float *>(In), N);
  cuStreamEndCapture(S, &G);
  cuGraphInstantiate(&X, G, 0);
  cuGraphLaunch(X, S);
  cuStreamSynchronize(S);
  cuMemFree(In);
  CUdeviceptr Reused;
  cuMemAlloc(&Reused, N * sizeof(float));
  cuGraphLaunch(X, S);
  CUresult R = cuStreamSynchronize(S);
  std::printf("replay after free: %d\n", static_cast<int>(R));
  cuMemFree(Reused);
  cuMemFree(Out);
  return 0;
}
