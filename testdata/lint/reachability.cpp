// Findings in code reached from a region: helpers, methods, module forward(),
// lambdas, templates, capture helpers named in rules, and entry points.
#include "lint_prelude.h"
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

float log_norm(const at::Tensor &t) {
  // The call chain from the region is the finding's story.
  // CHECK-NOTES@+2: 'log_norm' is called here under capture
  // CHECK-NOTES@+1: the capture region begins here
  return t.norm().item<float>();                       // expected-error {{sync-tensor-read}}
}

at::Tensor layer(const at::Tensor &x) {
  log_norm(x);
  return x.relu();
}

struct NetImpl : torch::nn::Module {
  at::Tensor forward(at::Tensor x) {
    auto y = layer(x);
    cudaDeviceSynchronize();                           // expected-error {{sync-device-synchronize}}
    return y;
  }
};
TORCH_MODULE(Net);

template <typename F> void captured(at::cuda::CUDAGraph &g, F &&body) {
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  g.capture_begin();
  body();
  g.capture_end();
}

struct Virtual {
  virtual ~Virtual() = default;
  virtual void work(at::Tensor &x) { x.mul_(2); }
};
struct Derived : Virtual {
  void work(at::Tensor &x) override {
    auto h = x.cpu();                                  // expected-error {{sync-device-to-host-copy}}
  }
};

void not_reached(at::Tensor x) { cudaDeviceSynchronize(); }

void train(Net net, at::Tensor x, Virtual &v) {
  at::cuda::CUDAGraph g;
  captured(g, [&] {
    auto out = net(x);
    auto out2 = net->forward(x);
    v.work(x);
    auto check = [&] { return x.allclose(out); };       // expected-error {{sync-tensor-read}}
    check();
  });
  not_reached(x);
}

// Named in a rule file as always captured (see testdata/lint/include is not
// needed: annotation works without configuration).
__attribute__((annotate("graphsafe::captured"))) void fused_step(at::Tensor x) {
  x.add_(1);
  std::printf("in graph\n");                           // expected-warning {{host-io-in-capture}}
}
