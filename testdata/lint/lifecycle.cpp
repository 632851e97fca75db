// nested-capture, capture-begin-twice, and graphs held across methods.
#include "lint_prelude.h"

void nested(at::cuda::CUDAGraph &a, at::cuda::CUDAGraph &b, at::Tensor x) {
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  a.capture_begin();
  x.mul_(2);
  b.capture_begin();                                   // expected-error {{nested-capture}}
  x.add_(1);
  b.capture_end();
  a.capture_end();
}

void twice(at::Tensor x) {
  at::cuda::CUDAGraph g;
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  g.capture_begin();
  x.mul_(2);
  g.capture_end();
  g.capture_begin();                                   // expected-error {{capture-begin-twice}}
  x.add_(1);
  g.capture_end();
}

void in_loop(at::Tensor x) {
  at::cuda::CUDAGraph g;
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  for (int i = 0; i < 2; ++i) {
    g.capture_begin();                                 // expected-error {{capture-begin-twice}}
    x.mul_(2);
    g.capture_end();
  }
}

void with_reset(at::Tensor x) {
  at::cuda::CUDAGraph g;
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  for (int i = 0; i < 2; ++i) {
    g.reset();
    g.capture_begin();
    x.mul_(2);
    g.capture_end();
  }
  g.reset();
  g.capture_begin();
  x.add_(1);
  g.capture_end();
}

void fresh_graph_per_iteration(at::Tensor x) {
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  for (int i = 0; i < 2; ++i) {
    at::cuda::CUDAGraph g;
    g.capture_begin();
    x.mul_(2);
    g.capture_end();
  }
}

// A graph held as a member, begun in one method and ended in another: work
// between the two calls is under capture.
class Recorder {
public:
  void start() {
    graph_.capture_begin();
  }
  void finish() { graph_.capture_end(); }
  void run(at::Tensor x) {
    c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
    start();
    x.mul_(2);
    float v = x.sum().item<float>();                   // expected-error {{sync-tensor-read}}
    finish();
    float after = x.sum().item<float>();
  }

private:
  at::cuda::CUDAGraph graph_;
};

// The capture mode picked by a flag, one begin in each branch: one capture,
// not one nested in another, and the code after its end is not captured.
void mode_by_flag(cudaStream_t s, bool relaxed, float *scratch) {
  cudaGraph_t g;
  if (relaxed)
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed); // expected-note {{relaxed-capture-mode}}
  else
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  cudaMemsetAsync(scratch, 0, 4, s);
  cudaStreamEndCapture(s, &g);
  cudaFree(scratch);
}

// Two begins one after the other on every path are still nested.
void begun_twice(cudaStream_t s, cudaStream_t t, bool relaxed) {
  cudaGraph_t g, h;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (relaxed)
    cudaStreamBeginCapture(t, cudaStreamCaptureModeGlobal); // expected-error {{nested-capture}}
  cudaStreamEndCapture(t, &h);
  cudaStreamEndCapture(s, &g);
}
