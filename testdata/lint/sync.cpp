// sync-* rules: host/device synchronization inside a capture region.
#include "lint_prelude.h"
#include <torch/cuda.h>

at::Tensor unsafe_reads(at::cuda::CUDAGraph &graph, at::Tensor x) {
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  graph.capture_begin();
  at::Tensor y = x * 2;
  float a = y.sum().item<float>();                  // expected-error {{sync-tensor-read}}
  at::Scalar s = y.max().item();                    // expected-error {{sync-tensor-read}}
  bool nz = y.is_nonzero();                         // expected-error {{sync-tensor-read}}
  bool eq = at::equal(x, y);                        // expected-error {{sync-tensor-read}}
  bool close = y.allclose(x);                       // expected-error {{sync-tensor-read}}
  auto host = y.cpu();                              // expected-error {{sync-device-to-host-copy}}
  auto host2 = y.to(at::kCPU);                      // expected-error {{sync-device-to-host-copy}}
  auto host3 = y.to(at::Device("cpu"));             // expected-error {{sync-device-to-host-copy}}
  auto host4 = y.to(at::TensorOptions().device(at::kCPU)); // expected-error {{sync-device-to-host-copy}}
  at::Tensor pinned = at::empty({4}, at::kCPU);
  pinned.copy_(y);                                  // expected-error {{sync-device-to-host-copy}}
  auto up = at::tensor({1.0f, 2.0f}).to(at::kCUDA); // expected-error {{sync-pageable-upload}}
  float buf[4] = {0, 1, 2, 3};
  auto up2 = at::from_blob(buf, {4}).cuda();        // expected-error {{sync-pageable-upload}}
  std::cout << y << "\n";                           // expected-error {{sync-print-tensor}} expected-warning {{host-io-in-capture}}
  y.print();                                        // expected-error {{sync-print-tensor}}
  torch::cuda::synchronize();                       // expected-error {{sync-device-synchronize}}
  c10::cuda::device_synchronize();                  // expected-error {{sync-device-synchronize}}
  cudaDeviceSynchronize();                          // expected-error {{sync-device-synchronize}}
  cudaStreamSynchronize(c10::cuda::getCurrentCUDAStream()); // expected-error {{sync-device-synchronize}}
  cuCtxSynchronize();                               // expected-error {{sync-device-synchronize}}
  c10::cuda::getCurrentCUDAStream().synchronize();  // expected-error {{sync-device-synchronize}}
  at::cuda::CUDAEvent ev;
  ev.record();
  ev.synchronize();                                 // expected-error {{sync-event-query}}
  bool done = ev.query();                           // expected-error {{sync-event-query}}
  cudaStreamQuery(c10::cuda::getCurrentCUDAStream()); // expected-error {{sync-event-query}}
  float *dst = nullptr;
  // CHECK-MESSAGES@+3: 'cudaMemcpy'
  // CHECK-FIXES@+2: cudaMemcpyAsync
  // CHECK-FIXES@+1: , at::cuda::getCurrentCUDAStream()
  cudaMemcpy(dst, buf, sizeof(buf), cudaMemcpyHostToDevice); // expected-error {{sync-legacy-memcpy}}
  cudaMemset(dst, 0, sizeof(buf));                  // expected-error {{sync-legacy-memcpy}} CHECK-FIXES: cudaMemsetAsync
  cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(dst), buf, sizeof(buf)); // expected-error {{sync-legacy-memcpy}}
  graph.capture_end();
  return y;
}

// Safe: the same operations before and after the region, async copies on the
// capture stream, and non-blocking copies into pinned memory.
at::Tensor safe_around_region(at::cuda::CUDAGraph &graph, at::Tensor x, at::Tensor pinned) {
  float before = x.sum().item<float>();
  cudaDeviceSynchronize();
  auto s = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard guard(s);
  graph.capture_begin();
  at::Tensor y = x * before;
  cudaMemcpyAsync(y.data_ptr(), x.data_ptr(), 16, cudaMemcpyDeviceToDevice, s.stream());
  pinned.copy_(y, /*non_blocking=*/true);
  auto z = y.to(at::kFloat);
  graph.capture_end();
  graph.replay();
  float after = y.sum().item<float>();
  std::cout << y << "\n";
  return z * after;
}
