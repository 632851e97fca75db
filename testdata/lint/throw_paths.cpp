// An exception between an explicit capture begin and end skips the end and
// leaves the stream capturing; RAII scopes and handlers that end the capture
// do not.
#include "lint_prelude.h"

#include <cstdlib>
#include <stdexcept>

void checkedCapture(at::cuda::CUDAGraph &g, at::Tensor x, int64_t n) {
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  g.capture_begin();                                        // expected-warning {{throw-leaves-capture-open}}
  // CHECK-MESSAGES@-1: a failing 'TORCH_CHECK' between this capture's begin
  TORCH_CHECK(n > 0, "batch must not be empty");
  x.mul_(2);
  g.capture_end();
}

void throwingCapture(cudaStream_t s, float *d, bool ok) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);   // expected-warning {{throw-leaves-capture-open}}
  cudaMemsetAsync(d, 0, 16, s);
  if (!ok)
    throw std::runtime_error("bad input");
  cudaStreamEndCapture(s, &graph);
}

// Safe: the check runs before the capture begins.
void checkFirst(at::cuda::CUDAGraph &g, at::Tensor x, int64_t n) {
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  TORCH_CHECK(n > 0, "batch must not be empty");
  g.capture_begin();
  x.mul_(2);
  g.capture_end();
}

// Safe: the handler ends the capture before rethrowing.
void endOnError(cudaStream_t s, float *d, bool ok) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  try {
    if (!ok)
      throw std::runtime_error("bad input");
    cudaMemsetAsync(d, 0, 16, s);
  } catch (...) {
    cudaStreamEndCapture(s, &graph);
    throw;
  }
  cudaStreamEndCapture(s, &graph);
}

// Safe: an RAII scope ends the capture while unwinding.
struct CaptureScope {
  cudaStream_t S;
  cudaGraph_t G = nullptr;
  explicit CaptureScope(cudaStream_t s) : S(s) { cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal); }
  ~CaptureScope() { cudaStreamEndCapture(S, &G); }
};

void scoped(cudaStream_t s, float *d, bool ok) {
  CaptureScope scope(s);
  if (!ok)
    throw std::runtime_error("bad input");
  cudaMemsetAsync(d, 0, 16, s);
}

// Safe: the process ends; nothing is left capturing.
void abortOnError(cudaStream_t s, float *d, bool ok) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (!ok)
    std::abort();
  cudaStreamEndCapture(s, &graph);
}
