// Virtual calls under capture reach the overrides of the classes the program
// makes objects of, wherever they are made: a local, `new`, make_shared, a
// member of another object.
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
    float v = x.sum().item<float>(); // expected-error {{sync-tensor-read}}
    (void)v;
  }
};
struct Synced : Metric {
  void update(at::Tensor &x) override {
    cudaDeviceSynchronize(); // expected-error {{sync-device-synchronize}}
  }
};
struct Copied : Metric {
  void update(at::Tensor &x) override {
    auto h = x.cpu(); // expected-error {{sync-device-to-host-copy}}
  }
};
struct Holder {
  Copied Inner;
};

void step(Metric &m, at::Tensor &x) {
  at::cuda::CUDAGraph g;
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  g.capture_begin();
  m.update(x);
  g.capture_end();
}

void train(at::Tensor x) {
  Logged l;
  step(l, x);
  std::unique_ptr<Metric> s(new Synced());
  step(*s, x);
  auto shared = std::make_shared<Mean>();
  step(*shared, x);
  Holder h;
  step(h.Inner, x);
}
