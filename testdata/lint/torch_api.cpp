// Real libtorch code through <torch/torch.h>: optimizers, schedulers and the
// torch:: spellings of the same calls.
#include <torch/torch.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

struct MlpImpl : torch::nn::Module {
  MlpImpl() : fc(register_module("fc", torch::nn::Linear(64, 64))) {}
  torch::Tensor forward(torch::Tensor x) { return torch::relu(fc->forward(x)); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Mlp);

void unsafe_step(Mlp model, torch::optim::Adam &opt, torch::Tensor x, torch::Tensor y) {
  at::cuda::CUDAGraph graph;
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  graph.capture_begin();
  auto loss = torch::mse_loss(model(x), y);
  loss.backward();
  opt.step();                                                  // expected-error {{optimizer-step-in-capture}}
  auto n = torch::nonzero(y);                                  // expected-error {{data-dependent-shape}}
  double l = loss.item<double>();                              // expected-error {{sync-tensor-read}}
  auto cpu = loss.to(torch::kCPU);                             // expected-error {{sync-device-to-host-copy}}
  auto t = torch::tensor({1, 2, 3}).to(torch::Device(torch::kCUDA)); // expected-error {{sync-pageable-upload}}
  graph.capture_end();
}

// Capturing forward and backward only, stepping outside: the shape the
// PyTorch docs recommend for libtorch.
void safe_step(Mlp model, torch::optim::SGD &opt, torch::Tensor static_x, torch::Tensor static_y) {
  at::cuda::CUDAGraph graph;
  auto side = c10::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard guard(side);
    for (int i = 0; i < 3; ++i) {
      opt.zero_grad();
      torch::mse_loss(model(static_x), static_y).backward();
      opt.step();
    }
  }
  torch::cuda::synchronize();
  torch::Tensor static_loss;
  {
    c10::cuda::CUDAStreamGuard guard(side);
    opt.zero_grad();
    graph.capture_begin();
    static_loss = torch::mse_loss(model(static_x), static_y);
    static_loss.backward();
    graph.capture_end();
  }
  for (int step = 0; step < 10; ++step) {
    graph.replay();
    opt.step();
  }
  std::cout << static_loss.item<float>() << "\n";
}
