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

// A helper whose result is derived from the capture status is a guard wherever
// it is called; a helper that tests something else is not.
static bool isCapturing(cudaStream_t s) {
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(s, &st);
  return st != cudaStreamCaptureStatusNone;
}
static bool doCheckError(cudaStream_t s) { return !isCapturing(s); }
static bool debugSyncs(cudaStream_t s, bool Debug) { return Debug && !isCapturing(s); }
static bool verbose(int Level) { return Level > 2; }

void syncAndCheck(cudaStream_t s, bool Debug) {
  if (doCheckError(s))
    cudaStreamSynchronize(s);
  if (debugSyncs(s, Debug))
    cudaDeviceSynchronize();
  if (isCapturing(s))
    return;
  cudaDeviceSynchronize();
}

void syncIfVerbose(cudaStream_t s, int Level) {
  if (verbose(Level))
    cudaStreamSynchronize(s);                               // expected-error {{sync-device-synchronize}}
}

void helperGuardedRegion(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  syncAndCheck(s, true);
  syncIfVerbose(s, 3);
  cudaStreamEndCapture(s, &g);
}

// A helper read as this build compiles it: with graph support configured out
// it returns false on every path, so what it guards never runs; one that
// returns true there guards nothing.
static bool shouldCheckErrors(cudaStream_t s) {
#ifdef GRAPHSAFE_TESTDATA_GRAPH_SUPPORT
  return !isCapturing(s);
#else
  (void)s;
  return false;
#endif
}
static bool shouldValidate(cudaStream_t s) {
#ifdef GRAPHSAFE_TESTDATA_GRAPH_SUPPORT
  return !isCapturing(s);
#else
  (void)s;
  return true;
#endif
}

void checkedStep(cudaStream_t s) {
  if (shouldCheckErrors(s))
    cudaStreamSynchronize(s);
  if (shouldValidate(s))
    cudaDeviceSynchronize();                                // expected-error {{sync-device-synchronize}}
}

void configuredRegion(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  checkedStep(s);
  cudaStreamEndCapture(s, &g);
}
