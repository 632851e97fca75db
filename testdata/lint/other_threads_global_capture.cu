// A program that captures in global mode on one thread and runs CUDA work on
// others: the workers' potentially unsafe calls break the capture whenever
// they happen during it. Stream-ordered calls on the per-thread stream are fine.
#include <cuda_runtime.h>

#include <future>
#include <thread>

static float *g_buffer;
static size_t g_bytes = 1 << 20;

// A buffer-clear helper called from worker threads (the pattern a real library fixed).
void clearBuffer() {
  cudaMemset(g_buffer, 0, g_bytes); // expected-warning {{thread-breaks-global-capture}}
  // CHECK-NOTES@-1: runs on another thread, started here
  // CHECK-NOTES@-2: a capture in global mode begins here
}

// The fix: stream-ordered on the per-thread default stream.
void clearBufferPerThread() {
  cudaMemsetAsync(g_buffer, 0, g_bytes, cudaStreamPerThread);
  cudaStreamSynchronize(cudaStreamPerThread);
}

void worker(int Rounds) {
  for (int I = 0; I < Rounds; ++I)
    clearBuffer();
  clearBufferPerThread();
}

void teardown(cudaStream_t S) {
  cudaStreamDestroy(S); // expected-warning {{thread-breaks-global-capture}}
}

// The mode comes from the caller; the call below leaves it at its default.
void beginCapture(cudaStream_t S, cudaStreamCaptureMode Mode = cudaStreamCaptureModeGlobal) {
  cudaStreamBeginCapture(S, Mode);
}

void capture(cudaStream_t S, cudaGraph_t *G) {
  beginCapture(S);
  cudaStreamEndCapture(S, G);
}

int main() {
  cudaStream_t S, Other;
  cudaStreamCreate(&S);
  cudaStreamCreate(&Other);
  cudaMalloc(&g_buffer, g_bytes);
  std::thread T(worker, 10);
  auto F = std::async(std::launch::async, teardown, Other);
  std::thread Lambda([] {
    cudaDeviceSynchronize(); // expected-warning {{thread-syncs-device-during-capture}}
  });
  cudaGraph_t G;
  capture(S, &G);
  T.join();
  Lambda.join();
  F.wait();
  cudaFree(g_buffer); // on the capturing thread, after the capture: fine
  return 0;
}
