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

// Calls that run the method they name and no override, though a class that
// overrides it with a sync is made: a qualified call, a call on an object
// held by value, and a call on `this` in a constructor.
struct Stage {
  virtual ~Stage() = default;
  virtual void run(at::Tensor &x) { x.add_(1); }
};
struct Flushing : Stage {
  void run(at::Tensor &x) override { cudaDeviceSynchronize(); }
};
struct Step {
  virtual ~Step() = default;
  virtual void run(at::Tensor &x) { x.add_(1); }
};
struct Waiting : Step {
  void run(at::Tensor &x) override { cudaStreamSynchronize(nullptr); }
};
struct Holder {
  Step own;
  void go(at::Tensor &x) { own.run(x); }
};
struct Phase {
  virtual ~Phase() = default;
  virtual void prime(at::Tensor &x) { x.zero_(); }
};
struct Primed : Phase {
  explicit Primed(at::Tensor &x) { prime(x); }
};
struct Reading : Primed {
  explicit Reading(at::Tensor &x) : Primed(x) {}
  void prime(at::Tensor &x) override { x.item<float>(); }
};

void staged(Stage &s, Holder &h, at::Tensor &x) {
  at::cuda::CUDAGraph g;
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  g.capture_begin();
  s.Stage::run(x);
  h.go(x);
  Primed p(x);
  g.capture_end();
}

void trainStaged(at::Tensor x) {
  auto f = std::make_shared<Flushing>();
  auto w = std::make_shared<Waiting>();
  auto r = std::make_shared<Reading>(x);
  Holder h;
  staged(*f, h, x);
}
