// libtorch, clean: an output in the graph's own pool dies between replays, a
// graph is reset before its input is freed, and the last static input dies
// after the last replay.
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include <cstdio>
#include <memory>

namespace {

std::unique_ptr<at::cuda::CUDAGraph> capture(torch::nn::Linear &Model, const torch::Tensor &X,
                                             torch::Tensor &Y) {
  auto Side = c10::cuda::getStreamFromPool();
  auto Graph = std::make_unique<at::cuda::CUDAGraph>();
  c10::cuda::CUDAStreamGuard Guard(Side);
  Model->forward(X);
  Side.synchronize();
  Graph->capture_begin();
  Y = torch::relu(Model->forward(X));
  Graph->capture_end();
  torch::cuda::synchronize();
  return Graph;
}

} // namespace

int main() {
  torch::manual_seed(0);
  torch::NoGradGuard NoGrad;
  torch::nn::Linear Model(64, 64);
  Model->to(torch::kCUDA);
  auto StaticX = torch::randn({32, 64}, torch::kCUDA);
  torch::Tensor StaticY;
  auto Graph = capture(Model, StaticX, StaticY);
  double Total = 0;
  for (int Step = 0; Step < 3; ++Step) {
    StaticX.copy_(torch::randn({32, 64}, torch::kCUDA));
    Graph->replay();
    Total += StaticY.sum().item<double>();
  }
  StaticY.reset(); // The graph's own output dying is normal...
  Graph->replay(); // ...the graph keeps writing its own pool.
  Graph.reset();   // Destroyed...
  StaticX.reset(); // ...before its input is freed.
  auto X2 = torch::randn({32, 64}, torch::kCUDA);
  torch::Tensor Y2;
  auto Graph2 = capture(Model, X2, Y2);
  for (int Step = 0; Step < 2; ++Step) {
    X2.copy_(torch::randn({32, 64}, torch::kCUDA));
    Graph2->replay();
    Total += Y2.sum().item<double>();
  }
  X2.reset(); // After the last replay.
  torch::cuda::synchronize();
  std::printf("total is finite: %s\n", Total == Total ? "true" : "false");
  return 0;
}
