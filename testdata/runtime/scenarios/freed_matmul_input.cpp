// expect: graph-uses-freed-memory at 33
// graphcheck: --mode light
// graphcheck: --mode verify
// libtorch: the static input of a captured matmul shares its cached segment
// with the weight; it is released and the cache emptied (the segment stays,
// the weight lives in it), then the graph replays.
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include <cstdio>

int main() {
  torch::manual_seed(0);
  torch::NoGradGuard NoGrad;
  auto W = torch::randn({512, 512}, torch::kCUDA);
  auto StaticIn = torch::randn({512, 512}, torch::kCUDA);
  auto Side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAGraph Graph;
  torch::Tensor StaticOut;
  {
    c10::cuda::CUDAStreamGuard Guard(Side);
    for (int I = 0; I < 2; ++I)
      torch::matmul(StaticIn, W);
    Side.synchronize();
    Graph.capture_begin();
    StaticOut = torch::matmul(StaticIn, W);
    Graph.capture_end();
  }
  torch::cuda::synchronize();
  StaticIn.reset(); // Bug: the graph still reads it.
  c10::cuda::CUDACachingAllocator::emptyCache();
  auto Other = torch::ones({512, 512}, torch::kCUDA);
  Graph.replay();
  torch::cuda::synchronize();
  std::printf("replayed; output finite: %s\n",
              torch::isfinite(StaticOut.sum()).item<bool>() ? "true" : "false");
  return 0;
}
