// The capture-file keys at work: begin/end wrappers, an RAII scope type that
// is named (not detected), a helper whose argument runs under capture, an
// entry point, and a house rule with an arg-mentions condition.
#include <cuda_runtime.h>

namespace house {
enum Mode { Blocking, NonBlocking };
void begin_capture(cudaStream_t s);
void end_capture(cudaStream_t s);
void copy(float *dst, const float *src, Mode m);
struct CaptureScope {
  explicit CaptureScope(cudaStream_t s);
  ~CaptureScope();
};
template <typename F> void run_captured(cudaStream_t s, F &&body) { body(); }
void captured_step(float *d, const float *h);
} // namespace house

void wrappers(float *d, const float *h, cudaStream_t s) {
  house::copy(d, h, house::Blocking); // Before the capture: fine.
  house::begin_capture(s);
  house::copy(d, h, house::NonBlocking);
  house::copy(d, h, house::Blocking); // expected-error {{house-blocking-copy}}
  cudaDeviceSynchronize();            // expected-error {{sync-device-synchronize}}
  house::end_capture(s);
  cudaDeviceSynchronize();
}

void scoped(cudaStream_t s) {
  {
    house::CaptureScope scope(s);
    cudaDeviceSynchronize(); // expected-error {{sync-device-synchronize}}
  }
  cudaDeviceSynchronize();
}

void helper(cudaStream_t s) {
  house::run_captured(s, [&] {
    cudaDeviceSynchronize(); // expected-error {{sync-device-synchronize}}
  });
  cudaDeviceSynchronize();
}

void house::captured_step(float *d, const float *h) {
  // CHECK-MESSAGES@+1: 'house::copy' blocks the host
  house::copy(d, h, house::Blocking); // expected-error {{house-blocking-copy}}
}
