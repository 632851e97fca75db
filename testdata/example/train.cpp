// Trains a classifier with the forward/backward pass captured in a CUDA graph.
#include "model.h"

#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

int main() {
  torch::Device device(torch::kCUDA);
  Classifier model;
  model->to(device);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  auto static_x = torch::randn({64, 256}, device);
  auto static_y = torch::randint(0, 10, {64}, device);

  auto side = c10::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard guard(side);
    for (int i = 0; i < 3; ++i) {  // warm-up on the capture stream
      opt.zero_grad();
      torch::cross_entropy_loss(model(static_x), static_y).backward();
      opt.step();
    }
  }
  torch::cuda::synchronize();

  at::cuda::CUDAGraph graph;
  torch::Tensor static_loss;
  double lr = 0.05;
  {
    c10::cuda::CUDAStreamGuard guard(side);
    opt.zero_grad();
    graph.capture_begin();
    static_loss = torch::cross_entropy_loss(model(static_x), static_y);
    static_loss.backward();
    for (auto &p : model->parameters())
      p.data().add_(p.grad(), -lr);  // lr is baked in at capture ...
    graph.capture_end();
  }

  for (int step = 0; step < 100; ++step) {
    static_x.copy_(torch::randn({64, 256}, device));
    graph.replay();
    if (step % 30 == 29)
      lr *= 0.5;  // ... so this decay never reaches the replays
    if (step % 10 == 0)
      std::cout << "step " << step << " loss " << static_loss.item<float>() << "\n";
  }
  return 0;
}
