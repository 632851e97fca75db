// Literal arguments that keep every unsafe branch of the callee off under
// capture: nothing here syncs while the stream captures.
// expected-no-diagnostics
#include <cuda_runtime.h>

void record(cudaStream_t s, float *buf, bool capturing, const int *counts = nullptr) {
  if (!capturing)
    cudaStreamSynchronize(s);
  if (!capturing && counts != nullptr) {
    int host = 0;
    cudaMemcpy(&host, buf, sizeof(int), cudaMemcpyDeviceToHost);
  }
  cudaMemsetAsync(buf, 0, 16, s);
}

void step_maybe_checked(cudaStream_t s, int check) {
  if (!check)
    return;
  cudaDeviceSynchronize();
}

void layer(cudaStream_t s, float *buf, bool capturing) { record(s, buf, capturing); }

void model(cudaStream_t s, float *buf, bool capturing = true) { layer(s, buf, capturing); }

void relabel(cudaStream_t s, float *buf, bool capturing) {
  capturing = !capturing;
  if (capturing)
    return;
  layer(s, buf, true); // written before use: only literals count here
}

struct Stepper {
  void run(cudaStream_t s, bool sync) const {
    if (sync)
      cudaStreamSynchronize(s);
  }
};

void capture(cudaStream_t s, float *buf) {
  cudaGraph_t g;
  Stepper st;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  record(s, buf, true);  // counts defaults to nullptr
  step_maybe_checked(s, 0);
  st.run(s, false);
  layer(s, buf, true);
  model(s, buf); // the default, passed on twice
  cudaStreamEndCapture(s, &g);
  record(s, buf, false); // after the capture: syncing is fine here
}
