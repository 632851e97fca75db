// data-dependent-shape, boolean-mask-indexing, data-dependent-branch.
#include "lint_prelude.h"
#include <torch/nn/functional/embedding.h>

void unsafe(at::cuda::CUDAGraph &graph, at::Tensor x, at::Tensor counts) {
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  graph.capture_begin();
  auto idx = at::nonzero(x);                           // expected-error {{data-dependent-shape}}
  auto idx2 = x.nonzero();                             // expected-error {{data-dependent-shape}}
  auto w = at::argwhere(x);                            // expected-error {{data-dependent-shape}}
  auto one = at::where(x > 0);                         // expected-error {{data-dependent-shape}}
  auto sel = x.masked_select(x > 0);                   // expected-error {{data-dependent-shape}}
  auto u = at::unique_consecutive(x);                  // expected-error {{data-dependent-shape}}
  auto b = counts.bincount();                          // expected-error {{data-dependent-shape}}
  auto r = x.repeat_interleave(counts);                // expected-error {{data-dependent-shape}}
  auto oh = at::one_hot(counts);                       // expected-error {{data-dependent-shape}}
  auto oh2 = torch::nn::functional::one_hot(counts);   // expected-error {{data-dependent-shape}}
  auto m = x.multinomial(4);                           // expected-error {{data-dependent-shape}}
  at::Tensor mask = x > 0;
  auto picked = x.index({mask});                       // expected-error {{boolean-mask-indexing}}
  x.index_put_({x.isnan()}, counts);                   // expected-error {{boolean-mask-indexing}}
  if (x.sum().item<float>() > 0) {                     // expected-error {{data-dependent-branch}} expected-error {{sync-tensor-read}}
    x.mul_(2);
  }
  while (!at::equal(x, counts)) {                      // expected-error {{data-dependent-branch}} expected-error {{sync-tensor-read}}
    x.add_(1);
  }
  graph.capture_end();
}

// Static-shape forms of the same ideas are capturable.
void safe(at::cuda::CUDAGraph &graph, at::Tensor x, at::Tensor counts, int64_t n) {
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  graph.capture_begin();
  auto three = at::where(x > 0, x, at::zeros_like(x));
  auto r = x.repeat_interleave(counts, /*dim=*/0, /*output_size=*/n);
  auto oh = at::one_hot(counts, 10);
  x.index_put_({x.isnan()}, 0.0);
  x.masked_fill_(x < 0, 0.0);
  auto rows = x.index({at::indexing::Slice(0, 2)});
  for (int64_t i = 0; i < n; ++i)
    x.add_(1);
  graph.capture_end();
  if (x.sum().item<float>() > 0)
    graph.replay();
}
