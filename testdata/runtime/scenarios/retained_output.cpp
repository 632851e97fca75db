// expect: read-after-overwrite
// libtorch: the output of one replay is kept, the graph replayed with a new
// input, and the first output read afterwards: it silently holds the second
// replay's values.
#include <graphsafe/watch.h>

#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include <cstdio>

int main() {
  torch::manual_seed(0);
  torch::NoGradGuard NoGrad;
  auto Cuda = torch::TensorOptions().device(torch::kCUDA);
  torch::nn::Linear Model(32, 32);
  Model->to(torch::kCUDA);
  auto X = torch::randn({4, 32}, Cuda);
  auto Side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAGraph Graph;
  torch::Tensor Y;
  {
    c10::cuda::CUDAStreamGuard Guard(Side);
    Model->forward(X); // Warm up outside the capture.
    Side.synchronize();
    Graph.capture_begin();
    Y = Model->forward(X);
    Graph.capture_end();
  }
  torch::cuda::synchronize();
  X.fill_(1.0);
  Graph.replay();
  torch::Tensor First = graphsafe::handedOut(Y, "first");
  X.fill_(0.0);
  Graph.replay();
  torch::Tensor Second = graphsafe::handedOut(Y, "second");
  // torch::equal would short-cut on the shared storage; a subtraction reads First.
  bool Same = (First - Second).abs().max().item<float>() == 0;
  std::printf("first equals second: %s\n", Same ? "true" : "false");
  return 0;
}
