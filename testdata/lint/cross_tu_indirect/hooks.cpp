// The callables are stored here; the capture that calls them is in
// train.cpp. Found through the stores merged across the files of one run.
#include "hooks.h"

std::function<void(cudaStream_t)> g_onStep;
Registry g_registry;

void installHooks() {
  g_onStep = [](cudaStream_t s) {
    cudaStreamSynchronize(s); // expected-error {{sync-device-synchronize}}
  };
  g_registry.Flush = [](cudaStream_t s) { cudaMemsetAsync(nullptr, 0, 0, s); };
}

void configure(Trainer &T) {
  T.addHook([](cudaStream_t s) {
    cudaStreamSynchronize(s); // expected-error {{sync-device-synchronize}}
  });
}

std::function<void(cudaStream_t)> makeFlush(bool Blocking) {
  if (Blocking)
    return [](cudaStream_t s) {
      cudaDeviceSynchronize(); // expected-error {{sync-device-synchronize}}
    };
  return [](cudaStream_t s) { cudaMemsetAsync(nullptr, 0, 0, s); };
}
