// The capture region is here; its findings are in the file it reaches.
// expected-no-diagnostics
#include "hooks.h"

void step(cudaStream_t s) {
  installHooks();
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  g_onStep(s);
  g_registry.Flush(s);
  cudaStreamEndCapture(s, &g);
}

void Trainer::step(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (auto &Hook : Hooks)
    Hook(s);
  cudaStreamEndCapture(s, &g);
}

void flushStep(cudaStream_t s, bool Blocking) {
  auto Flush = makeFlush(Blocking);
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  Flush(s);
  cudaStreamEndCapture(s, &g);
}
