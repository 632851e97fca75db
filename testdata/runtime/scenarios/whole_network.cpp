// libtorch: whole-network capture as in the documentation: forward,
// backward and optimizer step in one graph, grads allocated inside the
// capture and refilled at every replay. Clean.
#include <graphsafe/watch.h>

#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include <cmath>
#include <cstdio>

int main() {
  torch::manual_seed(0);
  auto Cuda = torch::TensorOptions().device(torch::kCUDA);
  torch::nn::Sequential Model(torch::nn::Linear(64, 64), torch::nn::ReLU(),
                              torch::nn::Linear(64, 1));
  Model->to(torch::kCUDA);
  graphsafe::watch(*Model);
  torch::optim::SGD Opt(Model->parameters(), torch::optim::SGDOptions(0.01));
  auto X = torch::randn({16, 64}, Cuda), Y = torch::randn({16, 1}, Cuda);
  auto Side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAGraph Graph;
  torch::Tensor Loss;
  {
    c10::cuda::CUDAStreamGuard Guard(Side);
    for (int I = 0; I < 3; ++I) { // Warm up outside the capture.
      Opt.zero_grad();
      torch::mse_loss(Model->forward(X), Y).backward();
      Opt.step();
    }
    Side.synchronize();
    Opt.zero_grad(); // set_to_none: the capture allocates the grads.
    Graph.capture_begin();
    Loss = torch::mse_loss(Model->forward(X), Y);
    Loss.backward();
    Opt.step();
    Graph.capture_end();
  }
  torch::cuda::synchronize();
  for (int I = 0; I < 5; ++I) {
    X.copy_(torch::randn({16, 64}, Cuda));
    Y.copy_(torch::randn({16, 1}, Cuda));
    Graph.replay();
  }
  torch::cuda::synchronize();
  std::printf("loss finite: %s\n", std::isfinite(Loss.item<float>()) ? "true" : "false");
  return 0;
}
