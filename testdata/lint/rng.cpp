// rng-* rules. register_generator_state comes from PyTorch 2.2+, which the
// bundled 1.13 headers predate; torch2_graph.h stands in for that API.
#include "lint_prelude.h"
#include "torch2_graph.h"

#include <random>

__attribute__((global)) void noise_kernel(float *out, unsigned long long seed);

void unsafe(torch2::CUDAGraph &graph, at::Tensor x) {
  at::Generator gen = at::make_generator<at::CUDAGeneratorImpl>(42);
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  graph.capture_begin();
  auto noise = at::randn({4}, gen, x.options());        // expected-error {{rng-unregistered-generator}}
  x.normal_(0, 1, gen);                                  // expected-error {{rng-unregistered-generator}}
  auto fresh = at::rand({4}, x.options());
  gen.set_current_seed(7);                               // expected-error {{rng-seed-in-capture}}
  at::manual_seed(3);                                    // expected-error {{rng-seed-in-capture}}
  graph.capture_end();
}

void registered(torch2::CUDAGraph &graph, at::Tensor x) {
  at::Generator gen = at::cuda::detail::createCUDAGenerator();
  gen.set_current_seed(7);
  graph.register_generator_state(gen);
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  graph.capture_begin();
  auto noise = at::randn({4}, gen, x.options());
  x.bernoulli_(0.5, gen);
  graph.capture_end();
}
