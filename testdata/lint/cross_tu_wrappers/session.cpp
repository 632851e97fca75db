// The code between the wrappers' calls runs under capture, though this file
// sees neither cudaStreamBeginCapture nor cudaStreamEndCapture.
#include "graph_capture.h"

#include <functional>
#include <vector>

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

// A session running every provider's hooks through the interface, the start
// hook from inside a lambda (ONNX Runtime's InferenceSession::Run).
int SessionRun(std::vector<ExecutionProvider *> &Providers, float *Data, cudaStream_t Stream) {
  std::vector<ExecutionProvider *> Started;
  for (ExecutionProvider *P : Providers) {
    auto Start = [&] { return P->OnRunStart(Stream); };
    if (Start() == 0)
      Started.push_back(P);
  }
  LaunchModel(Data, Stream);
  cudaDeviceSynchronize();                                  // expected-error {{sync-device-synchronize}}
  for (ExecutionProvider *P : Started)
    P->OnRunEnd(Stream);
  cudaDeviceSynchronize();
  return 0;
}

// A hook stored in a member is called wherever a program calls it; here it
// ends the capture through the provider, whose code after its end call runs
// after the capture.
struct Hooks {
  std::function<void()> AfterStep;
};
void StepWithHooks(Hooks &H, GraphProvider &P, float *Data, cudaStream_t Stream) {
  H.AfterStep = [&] { P.OnRunEnd(Stream); };
  BeginCapture(Stream);
  LaunchModel(Data, Stream);
  H.AfterStep();
}
