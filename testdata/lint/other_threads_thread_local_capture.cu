// The same workers, with a capture in thread-local mode on a non-blocking
// stream: other threads' allocations and legacy-stream calls do not affect
// it, but a device-wide sync still waits on the capturing stream.
#include <cuda_runtime.h>

#include <thread>

static float *g_buffer;

void clearBuffer() {
  cudaMemset(g_buffer, 0, 1024);
  cudaDeviceSynchronize(); // expected-warning {{thread-syncs-device-during-capture}}
}

// A stream class whose begin takes the mode from its caller, global unless
// told otherwise: the mode is the one the call passes.
struct Stream {
  cudaStream_t Handle;
  void beginCapture(cudaStreamCaptureMode Mode = cudaStreamCaptureModeGlobal) {
    cudaStreamBeginCapture(Handle, Mode);
  }
  cudaGraph_t endCapture() {
    cudaGraph_t G;
    cudaStreamEndCapture(Handle, &G);
    return G;
  }
};

// The fix llama.cpp made: the thread's own work on the per-thread stream.
void clearBufferFixed() {
  cudaMemsetAsync(g_buffer, 0, 1024, cudaStreamPerThread);
  cudaStreamSynchronize(cudaStreamPerThread);
}

int main() {
  cudaStream_t S;
  cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking);
  cudaMalloc(&g_buffer, 1024);
  std::thread T(clearBuffer), U(clearBufferFixed);
  cudaGraph_t G;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);
  cudaStreamEndCapture(S, &G);
  Stream Wrapped{S};
  Wrapped.beginCapture(cudaStreamCaptureModeThreadLocal);
  G = Wrapped.endCapture();
  T.join();
  U.join();
  return 0;
}
