// Wrappers of the wrappers: their bookkeeping is still mechanism; a sync in
// an end wrapper before it ends the capture its caller began runs under that
// capture.
#include "graph_capture.h"

#include <cstdio>

static int RunsStarted = 0;
static cudaGraphExec_t Exec = nullptr;

void OnRunStart(cudaStream_t Stream) {
  BeginCapture(Stream);
  ++RunsStarted;
  std::printf("run %d: capturing\n", RunsStarted);
}

void OnRunEnd(cudaStream_t Stream) {
  std::printf("run %d: instantiating\n", RunsStarted);
  cudaStreamQuery(Stream); // expected-error {{sync-event-query}}
  cudaGraphInstantiate(&Exec, EndCapture(Stream), 0);
}

int GraphProvider::OnRunStart(cudaStream_t Stream) {
  if (GraphsOn)
    BeginCapture(Stream);
  return 0;
}

int EagerFallbackProvider::OnRunStart(cudaStream_t Stream) {
  if (!GraphsOn)
    return 0;
  BeginCapture(Stream);
  return 0;
}

int EagerFallbackProvider::OnRunEnd(cudaStream_t Stream) {
  cudaStreamQuery(Stream); // expected-error {{sync-event-query}}
  if (!GraphsOn) {
    // No capture is open on this path: returning here would leave one open.
    cudaStreamSynchronize(Stream);
    return 0;
  }
  cudaGraphInstantiate(&Exec, EndCapture(Stream), 0);
  return 0;
}

int GraphProvider::OnRunEnd(cudaStream_t Stream) {
  if (GraphsOn) {
    cudaGraphInstantiate(&Exec, EndCapture(Stream), 0);
    // After its end call: the capture is over, replaying and waiting is fine.
    cudaGraphLaunch(Exec, Stream);
    cudaStreamSynchronize(Stream);
  }
  return 0;
}
