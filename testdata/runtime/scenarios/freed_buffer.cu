// expect: graph-uses-freed-memory
// graphcheck: --mode light
// graphcheck: --mode verify
// Raw CUDA: the buffer a captured kernel writes is freed after instantiate
// and its address handed to a new allocation; the replay then writes memory
// that now belongs to someone else. compute-sanitizer sees nothing wrong: the
// address is valid, it is just not the graph's any more.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *Out, const float *In, float K, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = In[I] * K;
}

int main() {
  const int N = 1 << 16;
  float *In, *Out;
  cudaMalloc(&In, N * sizeof(float));
  cudaMalloc(&Out, N * sizeof(float));
  cudaMemset(In, 0, N * sizeof(float));
  cudaStream_t S;
  cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking);
  cudaGraph_t G;
  cudaGraphExec_t X;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  scale<<<N / 256, 256, 0, S>>>(Out, In, 2.0f, N);
  cudaStreamEndCapture(S, &G);
  cudaGraphInstantiate(&X, G, 0);
  cudaGraphLaunch(X, S);
  cudaStreamSynchronize(S);
  cudaFree(Out); // The graph still writes here.
  float *Other;
  cudaMalloc(&Other, N * sizeof(float));
  cudaGraphLaunch(X, S);
  cudaError_t E = cudaStreamSynchronize(S);
  std::printf("replay after free: %s\n", cudaGetErrorName(E));
  cudaFree(Other);
  cudaFree(In);
  return 0;
}
