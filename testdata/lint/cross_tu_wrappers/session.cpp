// The code between the wrappers' calls runs under capture, though this file
// sees neither cudaStreamBeginCapture nor cudaStreamEndCapture.
#include "graph_capture.h"

static int Steps = 0;

void LaunchModel(float *Data, cudaStream_t Stream) {
  cudaMemsetAsync(Data, 0, 64, Stream);
  cudaStreamSynchronize(Stream);                            // expected-error {{sync-device-synchronize}}
}

void CaptureStep(float *Data, cudaStream_t Stream) {
  cudaStreamSynchronize(Stream);                            // before the capture: fine
  BeginCapture(Stream);
  LaunchModel(Data, Stream);
  ++Steps;                                                  // expected-warning {{host-state-mutation}}
  cudaGraph_t G = EndCapture(Stream);
  cudaStreamSynchronize(Stream);                            // after it: fine
}

void ProviderRun(float *Data, cudaStream_t Stream) {
  OnRunStart(Stream);
  cudaDeviceSynchronize();                                  // expected-error {{sync-device-synchronize}}
  OnRunEnd(Stream);
  cudaDeviceSynchronize();
}
