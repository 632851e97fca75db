// Destructors run where the language calls them, with no call written: a
// local's at the end of its block, a temporary's at the end of its
// full-expression, the pointee's at `delete` and when a std::unique_ptr
// goes. Under capture, a sync or a device switch there is as illegal as one
// written in the region. A destructor that ends the capture is the capture's
// own guard, and one whose object dies after the capture ended runs outside.
#include <cuda_runtime.h>

#include <cstdio>
#include <memory>

__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }

struct DeviceRestore {
  int Saved = 0;
  DeviceRestore() { cudaGetDevice(&Saved); }
  ~DeviceRestore() { cudaSetDevice(Saved); } // expected-warning {{device-switch-in-capture}}
};

struct Flusher {
  cudaStream_t S;
  ~Flusher() { cudaStreamSynchronize(S); } // expected-error {{sync-device-synchronize}}
};

struct Scratch {
  float *P = nullptr;
  ~Scratch() { cudaFree(P); } // expected-error {{alloc-in-capture}}
};

struct Timer {
  ~Timer() { std::printf("done\n"); } // expected-warning {{host-io-in-capture}}
};

struct Quiet {
  ~Quiet() {} // nothing under capture
};

struct AfterCapture {
  ~AfterCapture() { cudaDeviceSynchronize(); } // dies after the capture ended
};

// reset() of a class of the project's own destroys nothing.
struct Resettable {
  void reset() {}
  ~Resettable() { cudaDeviceSynchronize(); } // dies after the capture ended
};

void launch(float *D, cudaStream_t S) {
  Flusher F{S}; // its destructor runs when launch returns, under the caller's capture
  step<<<1, 32, 0, S>>>(D);
}

void capture(float *D, cudaStream_t S, cudaGraph_t *G) {
  AfterCapture Later;
  Resettable R;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);
  {
    DeviceRestore Guard;
    Quiet Q;
    step<<<1, 32, 0, S>>>(D);
  }
  launch(D, S);
  auto Owned = std::make_unique<Scratch>();
  Owned.reset();
  Timer();
  R.reset();
  cudaStreamEndCapture(S, G);
}
