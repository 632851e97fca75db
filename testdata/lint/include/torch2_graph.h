// PyTorch 2.2+ added CUDAGraph::register_generator_state; the Debian 1.13
// headers the tests parse against predate it. This stand-in adds the method
// so rng cases read as they would against current PyTorch.
#pragma once
#include <ATen/cuda/CUDAGraph.h>

namespace torch2 {
struct CUDAGraph : at::cuda::CUDAGraph {
  void register_generator_state(const at::Generator &generator);
};
} // namespace torch2
