#pragma once
#include <torch/torch.h>

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl();
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  at::Generator dropout_gen;
  int64_t forward_calls = 0;
};
TORCH_MODULE(Classifier);

// Launches the fused bias+GELU kernel in kernels.cu.
void fused_bias_gelu(torch::Tensor &x, const torch::Tensor &bias);
