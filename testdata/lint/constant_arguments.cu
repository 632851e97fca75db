// Branches a literal argument decides: a helper that syncs only when not
// capturing is safe for the caller that passes `capturing = true`, and unsafe
// for one that passes false or a value only known at run time.
#include <cuda_runtime.h>

void record(cudaStream_t s, float *buf, bool capturing, const int *counts = nullptr) {
  if (!capturing)
    cudaStreamSynchronize(s); // expected-error {{sync-device-synchronize}}
  if (counts != nullptr) {
    int host = 0;
    cudaMemcpy(&host, counts, sizeof(int), cudaMemcpyDeviceToHost); // expected-error {{sync-legacy-memcpy}}
  }
  cudaMemsetAsync(buf, 0, 16, s);
}

void step_maybe_checked(cudaStream_t s, float *buf, int check) {
  if (check == 0)
    return;
  cudaDeviceSynchronize(); // expected-error {{sync-device-synchronize}}
}

void layer(cudaStream_t s, float *buf, bool capturing) {
  record(s, buf, capturing); // passed on: the caller's literal decides
}

void capture(cudaStream_t s, float *buf, const int *counts, bool runtimeFlag) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  record(s, buf, false);          // reaches the stream sync
  record(s, buf, true, counts);   // reaches the blocking copy
  record(s, buf, runtimeFlag);    // not a literal: either branch may run
  step_maybe_checked(s, buf, 1);  // past the early return
  layer(s, buf, false);
  cudaStreamEndCapture(s, &g);
}
