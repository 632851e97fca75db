// expect: graph-uses-freed-memory at 41
// expect: graph-uses-freed-memory at 41
// graphcheck: --mode light
// graphcheck: --mode verify
// (weight.grad and bias.grad)
// libtorch: whole-network capture after a warm-up that left .grad allocated;
// the captured backward accumulates into those blocks. Optimizer::zero_grad()
// sets grads to undefined by default, freeing them between replays: the
// replays write freed memory and the optimizer updates nothing.
#include <graphsafe/watch.h>

#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include <cstdio>

int main() {
  torch::manual_seed(0);
  auto Cuda = torch::TensorOptions().device(torch::kCUDA);
  torch::nn::Linear Model(32, 1);
  Model->to(torch::kCUDA);
  graphsafe::watch(*Model);
  torch::optim::SGD Opt(Model->parameters(), torch::optim::SGDOptions(0.1));
  auto X = torch::randn({16, 32}, Cuda), Y = torch::randn({16, 1}, Cuda);
  auto Side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAGraph Graph;
  {
    c10::cuda::CUDAStreamGuard Guard(Side);
    for (int I = 0; I < 3; ++I) // Warm up: leaves .grad allocated.
      torch::mse_loss(Model->forward(X), Y).backward();
    Side.synchronize();
    Graph.capture_begin();
    torch::mse_loss(Model->forward(X), Y).backward();
    Graph.capture_end();
  }
  torch::cuda::synchronize();
  auto Before = Model->weight.detach().clone();
  for (int I = 0; I < 3; ++I) {
    Opt.zero_grad(); // Bug: frees the .grad blocks the graph accumulates into.
    Graph.replay();
    Opt.step();
  }
  torch::cuda::synchronize();
  std::printf("weights changed: %s\n", torch::equal(Before, Model->weight) ? "false" : "true");
  return 0;
}
