// A throw that skips a capture's end, wherever it sits: in a function the
// region calls, between the calls of begin and end wrappers, after the begin
// inside a begin wrapper, before the end inside an end wrapper. A callee that
// catches its own throw, or is noexcept (the process ends), does not.
#include "lint_prelude.h"

#include <stdexcept>

static void checkShape(int64_t n) {
  if (n <= 0)
    throw std::invalid_argument("empty batch");
}

static void prepare(at::Tensor x, int64_t n) {
  checkShape(n);
  x.mul_(2);
}

void captureWithHelper(at::cuda::CUDAGraph &g, at::Tensor x, int64_t n) {
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  g.capture_begin();                                        // expected-warning {{throw-leaves-capture-open}}
  // CHECK-MESSAGES@-1: a call of 'prepare', which may throw, between this capture's begin
  prepare(x, n);
  g.capture_end();
}

static int64_t validated(int64_t n) {
  TORCH_CHECK(n > 0, "batch must not be empty");
  return n;
}

void captureWithCheckingHelper(cudaStream_t s, float *d, int64_t n) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);   // expected-warning {{throw-leaves-capture-open}}
  cudaMemsetAsync(d, 0, validated(n), s);
  cudaStreamEndCapture(s, &graph);
}

// Safe: the helper catches what it throws.
static int64_t clamped(int64_t n) {
  try {
    checkShape(n);
  } catch (const std::exception &) {
    return 1;
  }
  return n;
}

// Safe: noexcept; a throw out of it ends the process.
static void checkedNoexcept(int64_t n) noexcept {
  if (n <= 0)
    throw std::invalid_argument("empty batch");
}

// Safe: the helper runs before the capture begins.
void helpersThatCannotLeave(cudaStream_t s, float *d, int64_t n) {
  cudaGraph_t graph;
  checkShape(n);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(d, 0, clamped(n), s);
  checkedNoexcept(n);
  cudaStreamEndCapture(s, &graph);
}

// Wrappers: the caller's region runs from one call to the other.
static cudaStream_t Capturing = nullptr;

void beginStep(cudaStream_t s, int64_t n) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);   // expected-warning {{throw-leaves-capture-open}}
  // CHECK-MESSAGES@-1: a throw between this capture's begin
  Capturing = s;
  if (n < 0)
    throw std::invalid_argument("negative step");
}

cudaGraph_t endStep(int64_t n) {
  cudaGraph_t graph;
  if (n > 1024)
    throw std::length_error("step too large");
  cudaStreamEndCapture(Capturing, &graph);                  // expected-warning {{throw-leaves-capture-open}}
  // CHECK-MESSAGES@-1: a throw between this capture's begin
  return graph;
}

static void prepareDevice(float *d, int64_t n, cudaStream_t s) {
  checkShape(n);
  cudaMemsetAsync(d, 0, n, s);
}

void stepThroughWrappers(cudaStream_t s, float *d, int64_t n) {
  beginStep(s, 1);                                          // expected-warning {{throw-leaves-capture-open}}
  // CHECK-MESSAGES@-1: a call of 'prepareDevice', which may throw, between this capture's begin
  prepareDevice(d, n, s);
  endStep(1);
}
