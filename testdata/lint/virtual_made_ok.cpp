// expected-no-diagnostics
// Virtual calls under capture reach only the overrides of classes the
// program makes objects of: Logged and Synced are defined but never made, so
// their syncs never run under the capture (the class hierarchy alone would
// say they may).
#include "lint_prelude.h"

#include <memory>

struct Metric {
  virtual ~Metric() = default;
  virtual void update(at::Tensor &x) = 0;
};
struct Mean : Metric {
  void update(at::Tensor &x) override { x.mean(); }
};
struct Logged : Metric {
  void update(at::Tensor &x) override {
    float v = x.sum().item<float>();
    (void)v;
  }
};
struct Synced : Metric {
  void update(at::Tensor &x) override { cudaDeviceSynchronize(); }
};

void step(Metric &m, at::Tensor &x) {
  at::cuda::CUDAGraph g;
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  g.capture_begin();
  m.update(x);
  g.capture_end();
}

void train(at::Tensor x) {
  auto mean = std::make_shared<Mean>();
  step(*mean, x);
}
