// expect: sync-during-capture at 14
// Raw CUDA: a helper synchronizes the stream while it is being captured.
// CUDA reports the failure at cudaStreamEndCapture; graphcheck names the
// helper's line (sync_in_capture.cu:14) from the symbolized host stack.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(float *P, float V, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    P[I] = V;
}

void checkpoint(cudaStream_t S) { cudaStreamSynchronize(S); }

int main() {
  const int N = 4096;
  float *P;
  cudaMalloc(&P, N * sizeof(float));
  cudaStream_t S;
  cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking);
  cudaGraph_t G = nullptr;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  fill<<<N / 256, 256, 0, S>>>(P, 1.0f, N);
  checkpoint(S);
  cudaError_t E = cudaStreamEndCapture(S, &G);
  std::printf("end capture: %s\n", cudaGetErrorName(E));
  cudaGetLastError();
  cudaFree(P);
  return 0;
}
