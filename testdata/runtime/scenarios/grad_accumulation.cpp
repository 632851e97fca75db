// expect: grad-aliases-graph-buffer
// expect: grad-aliases-graph-buffer
// (weight and bias)
// libtorch: a hand-written graphed training step whose static grads are put
// into .grad for the first micro-batch and accumulated into after that. The
// first assignment makes .grad the graph's own buffer, so the next replay
// overwrites the accumulated gradient: the result is g2 + g2, not g1 + g2.
#include <graphsafe/watch.h>

#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include <cstdio>

int main() {
  torch::manual_seed(0);
  auto Cuda = torch::TensorOptions().device(torch::kCUDA);
  torch::nn::Linear Model(64, 64);
  Model->to(torch::kCUDA);
  graphsafe::watch(*Model);
  std::vector<torch::Tensor> Params = Model->parameters();
  auto X = torch::randn({32, 64}, Cuda);
  std::vector<torch::Tensor> Batches;
  for (int I = 0; I < 3; ++I)
    Batches.push_back(torch::randn({32, 64}, Cuda));

  auto Side = c10::cuda::getStreamFromPool();
  Side.synchronize();
  at::cuda::CUDAGraph Graph;
  std::vector<torch::Tensor> StaticGrads;
  {
    c10::cuda::CUDAStreamGuard Guard(Side);
    for (int I = 0; I < 3; ++I) // Warm up outside the capture.
      torch::autograd::grad({Model->forward(X).pow(2).sum()}, Params);
    Side.synchronize();
    Graph.capture_begin();
    StaticGrads = torch::autograd::grad({Model->forward(X).pow(2).sum()}, Params);
    Graph.capture_end();
  }
  torch::cuda::synchronize();

  for (auto &B : Batches) {
    X.copy_(B);
    Graph.replay();
    for (size_t I = 0; I < Params.size(); ++I) {
      if (!Params[I].grad().defined())
        Params[I].mutable_grad() = StaticGrads[I]; // Bug: should be a copy.
      else
        Params[I].mutable_grad().add_(StaticGrads[I]);
    }
  }
  torch::cuda::synchronize();

  std::vector<torch::Tensor> Expected(Params.size());
  for (auto &B : Batches) {
    auto G = torch::autograd::grad({Model->forward(B).pow(2).sum()}, Params);
    for (size_t I = 0; I < G.size(); ++I)
      Expected[I] = Expected[I].defined() ? Expected[I] + G[I] : G[I];
  }
  double Diff = (Params[0].grad() - Expected[0]).abs().max().item<double>();
  std::printf("max |graphed - eager| weight.grad: %.1f\n", Diff);
  return 0;
}
