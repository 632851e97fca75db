// Suppression comments, with and without a reason.
#include "lint_prelude.h"

void region(at::cuda::CUDAGraph &g, at::Tensor x) {
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  g.capture_begin();
  float a = x.sum().item<float>(); // graphsafe: ignore[sync-tensor-read] capture runs in relaxed mode in tests only
  // graphsafe: ignore[sync-device-synchronize] the line below is guarded by the caller
  cudaDeviceSynchronize();
  cudaStreamQuery(c10::cuda::getCurrentCUDAStream()); // graphsafe: ignore[sync-tensor-read] wrong id: still reported // expected-error {{sync-event-query}}
  auto h = x.cpu(); // graphsafe: ignore[*] // expected-warning {{suppression-missing-reason}}
  g.capture_end();
}
