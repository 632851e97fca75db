// Streams handed to callables: a call through operator() (a lambda, a
// std::function) passes the callable ahead of its parameters, so the stream
// is the second argument of the call expression, not the first.
#include <cuda_runtime.h>

#include <functional>

__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }

void captureThroughCallables(float *d, cudaStream_t s, cudaStream_t side) {
  auto body = [&](cudaStream_t st) { fill<<<1, 32, 0, st>>>(d, 1.0f); };
  std::function<void(cudaStream_t, float)> step = [&](cudaStream_t st, float v) {
    fill<<<1, 32, 0, st>>>(d, v);
  };
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  body(s);
  step(s, 2.0f);
  body(side);                                           // expected-error {{side-stream-without-fork}}
  cudaStreamEndCapture(s, &g);
}
