// expect: graph-uses-freed-memory at 36
// graphcheck: --mode light
// graphcheck: --mode verify
// libtorch: the static input is rebound (`StaticX = Batch.cuda()`) instead of
// copied into; the graph keeps reading the old, freed block.
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include <cstdio>
#include <set>

int main() {
  torch::manual_seed(0);
  torch::NoGradGuard NoGrad;
  torch::nn::Linear Model(64, 64);
  Model->to(torch::kCUDA);
  auto StaticX = torch::randn({32, 64}, torch::kCUDA);
  auto Side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAGraph Graph;
  torch::Tensor StaticY;
  {
    c10::cuda::CUDAStreamGuard Guard(Side);
    for (int I = 0; I < 3; ++I) // Warm up outside the capture.
      Model->forward(StaticX);
    Side.synchronize();
    Graph.capture_begin();
    StaticY = torch::relu(Model->forward(StaticX));
    Graph.capture_end();
  }
  torch::cuda::synchronize();
  std::set<float> Sums;
  for (int Step = 0; Step < 3; ++Step) {
    auto Batch = torch::randn({32, 64}) * (Step + 1);
    StaticX = Batch.cuda(); // Bug: should be StaticX.copy_(Batch).
    Graph.replay();
    Sums.insert(StaticY.sum().item<float>());
  }
  std::printf("outputs follow the data: %s\n", Sums.size() == 3 ? "true" : "false");
  return 0;
}
