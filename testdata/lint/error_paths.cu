// Error paths that end the program or throw never run in a capture that
// succeeds: the logging inside the usual CHECK macro, or a branch that
// reports and throws, is not a capture hazard. The call the macro checks
// is still analysed, and a branch that logs and carries on is still host
// work that replays drop.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

#define CHECK_CUDA(call)                                                                   \
  do {                                                                                     \
    cudaError_t err_ = (call);                                                             \
    if (err_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, \
                   __LINE__);                                                              \
      std::exit(EXIT_FAILURE);                                                             \
    }                                                                                      \
  } while (0)

[[noreturn]] void fail(const char *Why);

void capture(float *d, cudaStream_t s) {
  cudaGraph_t g;
  CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK_CUDA(cudaMemsetAsync(d, 0, 128, s));
  CHECK_CUDA(cudaMemcpy(d, d + 32, 128, cudaMemcpyDeviceToDevice)); // expected-error {{sync-legacy-memcpy}}
  if (d == nullptr) {
    std::printf("no buffer\n");
    fail("no buffer");
  }
  if (d == nullptr) {
    std::cerr << "no buffer\n";
    throw std::runtime_error("no buffer");
  }
  if (d == nullptr)
    std::abort();
  if (d == nullptr) {
    std::printf("no buffer, carrying on\n");                        // expected-warning {{host-io-in-capture}}
  }
  std::printf("captured a step\n");                                 // expected-warning {{host-io-in-capture}}
  CHECK_CUDA(cudaStreamEndCapture(s, &g));
}
