// An RAII capture guard found by what it does, with no rule naming it: its
// constructor begins a stream capture and its destructor ends it. The
// guard's scope is the capture region; code after the scope is not.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }

class StreamCaptureScope {
public:
  StreamCaptureScope(cudaStream_t S, cudaGraph_t *G) : S(S), G(G) {
    cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);
  }
  ~StreamCaptureScope() { cudaStreamEndCapture(S, G); }

private:
  cudaStream_t S;
  cudaGraph_t *G;
};

// Not a guard: it only ends what someone else began.
struct EndOnly {
  cudaStream_t S;
  cudaGraph_t *G;
  ~EndOnly() { cudaStreamEndCapture(S, G); }
};

void train(float *d, cudaStream_t s) {
  cudaGraph_t g;
  {
    StreamCaptureScope Scope(s, &g);
    step<<<1, 32, 0, s>>>(d);
    cudaStreamSynchronize(s);                              // expected-error {{sync-device-synchronize}}
    std::printf("captured\n");                             // expected-warning {{host-io-in-capture}}
  }
  cudaStreamSynchronize(s);
  std::printf("after the scope\n");
  EndOnly Other{s, &g};
  cudaStreamSynchronize(s);
}
