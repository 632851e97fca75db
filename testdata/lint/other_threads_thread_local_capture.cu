// expected-no-diagnostics
// The same workers, with a capture in thread-local mode: other threads' calls
// do not affect it.
#include <cuda_runtime.h>

#include <thread>

static float *g_buffer;

void clearBuffer() {
  cudaMemset(g_buffer, 0, 1024);
  cudaDeviceSynchronize();
}

int main() {
  cudaStream_t S;
  cudaStreamCreate(&S);
  cudaMalloc(&g_buffer, 1024);
  std::thread T(clearBuffer);
  cudaGraph_t G;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);
  cudaStreamEndCapture(S, &G);
  T.join();
  return 0;
}
