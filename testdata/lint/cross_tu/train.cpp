// The capture region is here; its findings are in the file it reaches.
// expected-no-diagnostics
#include "model.h"

void train(at::cuda::CUDAGraph &g, at::Tensor x) {
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  g.capture_begin();
  auto y = model_step(x);
  g.capture_end();
  g.replay();
  report_progress(y);
}
