// Code that runs only when the environment sets a variable is off in a
// default run: under capture it is at most a note, naming the variable.
// Tests that hold by default (`!getenv(...)`, `== nullptr`) gate nothing.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

static const bool kTrace = std::getenv("MYLIB_TRACE") != nullptr;

void dump_state(cudaStream_t s) {
  // CHECK-MESSAGES@+1: only when the environment sets MYLIB_DUMP
  cudaStreamSynchronize(s); // expected-note {{sync-device-synchronize}}
}

void check_all(cudaStream_t s) {
  if (!std::getenv("MYLIB_CHECK"))
    return;
  cudaDeviceSynchronize(); // expected-note {{sync-device-synchronize}}
}

void step(cudaStream_t s, float *x) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (std::getenv("MYLIB_DEBUG")) {
    // CHECK-MESSAGES@+1: only when the environment sets MYLIB_DEBUG
    cudaDeviceSynchronize(); // expected-note {{sync-device-synchronize}}
  }
  if (kTrace)
    cudaDeviceSynchronize(); // expected-note {{sync-device-synchronize}}
  const char *level = std::getenv("MYLIB_LEVEL");
  if (level && std::strcmp(level, "2") == 0)
    cudaDeviceSynchronize(); // expected-note {{sync-device-synchronize}}
  if (std::getenv("MYLIB_DUMP") && std::atoi(std::getenv("MYLIB_DUMP")) > 0)
    dump_state(s);
  check_all(s);
  if (!std::getenv("MYLIB_QUIET"))
    cudaDeviceSynchronize(); // expected-error {{sync-device-synchronize}}
  if (std::getenv("MYLIB_FAST") == nullptr)
    cudaDeviceSynchronize(); // expected-error {{sync-device-synchronize}}
  if (!std::getenv("MYLIB_VERIFY")) {
    cudaMemsetAsync(x, 0, 4, s);
  } else {
    // CHECK-MESSAGES@+1: only when the environment sets MYLIB_VERIFY
    cudaDeviceSynchronize(); // expected-note {{sync-device-synchronize}}
  }
  cudaStreamEndCapture(s, &g);
}
