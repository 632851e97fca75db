// expect: graph-uses-freed-memory
// graphcheck: --mode light
// graphcheck: --mode verify
// A second thread is inside cudaStreamSynchronize when the main thread's
// capture ends. graphcheck watches every runtime call only while a capture is
// under way, so that sync's exit callback never comes; the thread's later
// driver calls must still count as its own. It frees the graph's input with
// cuMemFree, and the replay after that reads freed memory.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include <thread>

__global__ void spin(long long Cycles) {
  long long Start = clock64();
  while (clock64() - Start < Cycles) {
  }
}

__global__ void add(float *Out, const float *In, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] += In[I];
}

int main() {
  const int N = 1 << 14;
  cudaFree(nullptr); // Create the primary context the driver calls use.
  CUdeviceptr In, Out;
  cuMemAlloc(&In, N * sizeof(float));
  cuMemAlloc(&Out, N * sizeof(float));
  cuMemsetD32(In, 0, N);
  cuMemsetD32(Out, 0, N);
  cudaStream_t S, Busy;
  cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&Busy, cudaStreamNonBlocking);
  int ClockKHz = 0;
  cudaDeviceGetAttribute(&ClockKHz, cudaDevAttrClockRate, 0);
  spin<<<1, 1, 0, Busy>>>(static_cast<long long>(ClockKHz) * 1000); // About a second.

  std::atomic<int> Phase{0};
  cudaStreamBeginCapture(S, cudaStreamCaptureModeRelaxed);
  std::thread Other([&] {
    Phase = 1;
    cudaStreamSynchronize(Busy); // Still waiting when the capture ends.
    while (Phase.load() < 2)
      std::this_thread::yield();
    cuMemFree(In);
    Phase = 3;
  });
  while (Phase.load() < 1)
    std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  add<<<N / 256, 256, 0, S>>>(reinterpret_cast<float *>(Out), reinterpret_cast<const float *>(In),
                              N);
  cudaGraph_t G;
  cudaStreamEndCapture(S, &G);
  cudaGraphExec_t X;
  cudaGraphInstantiate(&X, G, 0);
  cudaGraphLaunch(X, S);
  cudaStreamSynchronize(S);
  Phase = 2;
  Other.join();
  // Nothing is allocated in its place: a new allocation there would give the
  // free away by itself.
  cudaGraphLaunch(X, S);
  cudaStreamSynchronize(S);
  std::printf("replayed after the other thread's free\n");
  return 0;
}
