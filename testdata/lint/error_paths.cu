// Error paths that end the program or throw never run in a capture that
// succeeds: the logging inside the usual CHECK macro, or a branch that
// reports and throws, is not a capture hazard. Nor does a branch taken on a
// failed CUDA or library status (the capture has failed by then), or a
// project's own failed status handed back up with a return. The call the
// macro checks is still analysed, and a branch that logs and carries on is
// still host work that replays drop.
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

// Headers written for nvcc test `#if __CUDACC__`, which nvcc defines as 1.
#if __CUDACC__
#define HOST_DEVICE __host__ __device__
#endif

// The status-returning CHECK macros of benchmark and test harnesses.
enum testResult_t { testSuccess = 0, testCudaError = 1 };
#define CUDACHECK(cmd)                                                                     \
  do {                                                                                     \
    cudaError_t e = cmd;                                                                   \
    if (e != cudaSuccess) {                                                                \
      std::printf("CUDA failure %s\n", cudaGetErrorString(e));                             \
      return testCudaError;                                                                \
    }                                                                                      \
  } while (0)
#define TESTCHECK(cmd)                                                                     \
  do {                                                                                     \
    testResult_t r = cmd;                                                                  \
    if (r != testSuccess) {                                                                \
      std::printf(" .. failed\n");                                                         \
      return r;                                                                            \
    }                                                                                      \
  } while (0)

HOST_DEVICE inline int twice(int X) { return 2 * X; }

testResult_t enqueue(float *d, cudaStream_t s) {
  CUDACHECK(cudaMemsetAsync(d, 0, 128, s));
  return testSuccess;
}

testResult_t captureWithStatus(float *d, cudaStream_t s) {
  cudaGraph_t g;
  CUDACHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  TESTCHECK(enqueue(d, s));
  cudaError_t q = cudaGetLastError();
  if (q == cudaSuccess) {
    cudaMemsetAsync(d, 0, twice(64), s);
  } else {
    std::fprintf(stderr, "earlier launch failed: %s\n", cudaGetErrorString(q));
  }
  testResult_t r = enqueue(d, s);
  if (r != testSuccess)
    std::printf("enqueue failed, carrying on\n"); // expected-warning {{host-io-in-capture}}
  CUDACHECK(cudaStreamEndCapture(s, &g));
  return testSuccess;
}

void capture(float *d, cudaStream_t s) {
  cudaGraph_t g;
  CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal)); // expected-warning {{throw-leaves-capture-open}}
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
