#include <cuda_runtime.h>
#include <torch/torch.h>

__global__ void bias_gelu_kernel(float *x, const float *bias, int n, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i] + bias[i % cols];
    x[i] = 0.5f * v * (1.f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  }
}

void fused_bias_gelu(torch::Tensor &x, const torch::Tensor &bias) {
  int n = x.numel();
  int cols = x.size(-1);
  // No stream argument: launches on the legacy default stream, not the
  // stream PyTorch is capturing.
  bias_gelu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), bias.data_ptr<float>(), n, cols);
}
