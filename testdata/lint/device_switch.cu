// Switching the current device under capture sends the following work to
// another device's streams. The switch-only-if-needed idiom does not switch
// under a capture of the current device: it is quiet.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                                   \
  do {                                                                                     \
    cudaError_t err_ = (call);                                                             \
    if (err_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s\n", cudaGetErrorString(err_));                              \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

void set_device_if_needed(int device) {
  int current;
  CUDA_CHECK(cudaGetDevice(&current));
  if (device == current) {
    return;
  }
  CUDA_CHECK(cudaSetDevice(device));
}

void set_device_when_different(int device) {
  int current = 0;
  cudaGetDevice(&current);
  if (current != device)
    cudaSetDevice(device);
}

void set_device_always(int device) {
  cudaSetDevice(device); // expected-warning {{device-switch-in-capture}}
}

void set_device_if_equal(int device) {
  int current = 0;
  cudaGetDevice(&current);
  if (current == device)
    cudaSetDevice(device + 1); // expected-warning {{device-switch-in-capture}}
}

void step(float *d, cudaStream_t s, int device) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  set_device_if_needed(device);
  set_device_when_different(device);
  set_device_always(device);
  set_device_if_equal(device);
  cudaMemsetAsync(d, 0, 64, s);
  cudaStreamEndCapture(s, &g);
}
