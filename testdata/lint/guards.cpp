// Code on the non-capturing side of a capture-status test is not in capture.
#include "lint_prelude.h"

void maybe_sync(at::Tensor x) {
  cudaStreamCaptureStatus status;
  cudaStreamIsCapturing(c10::cuda::getCurrentCUDAStream(), &status);
  if (status == cudaStreamCaptureStatusNone) {
    cudaDeviceSynchronize();
  }
  if (c10::cuda::currentStreamCaptureStatusMayInitCtx() != c10::cuda::CaptureStatus::None) {
    x.mul_(2);
  } else {
    float v = x.sum().item<float>();
  }
  if (status != cudaStreamCaptureStatusNone)
    return;
  auto host = x.cpu();
}

void guarded_wrong_way(at::Tensor x) {
  if (c10::cuda::currentStreamCaptureStatusMayInitCtx() == c10::cuda::CaptureStatus::Active) {
    cudaDeviceSynchronize();                           // expected-error {{sync-device-synchronize}}
  }
}

void region(at::cuda::CUDAGraph &g, at::Tensor x) {
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  g.capture_begin();
  maybe_sync(x);
  guarded_wrong_way(x);
  g.capture_end();
}
