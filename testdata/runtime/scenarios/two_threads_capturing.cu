// expect: graph-uses-freed-memory
// graphcheck: --mode light
// graphcheck: --mode verify
// Two threads capture at the same time, each into its own graph on its own
// stream (thread-local mode), while a third allocates and synchronizes its
// own stream: all legal. Only thread A's graph is then replayed after its
// output was freed; the finding must name that graph alone, and nothing the
// other threads did during the captures is a capture violation.
#include <condition_variable>
#include <cstdio>
#include <cuda_runtime.h>
#include <mutex>
#include <thread>

__global__ void fill(float *Out, float V, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = V;
}

constexpr int N = 1 << 16;

// Three threads meet here twice (std::barrier is C++20).
struct Barrier {
  std::mutex M;
  std::condition_variable CV;
  int Waiting = 0, Round = 0;
  void arrive_and_wait() {
    std::unique_lock<std::mutex> L(M);
    int Mine = Round;
    if (++Waiting == 3) {
      Waiting = 0;
      ++Round;
      CV.notify_all();
      return;
    }
    CV.wait(L, [&] { return Round != Mine; });
  }
} Sync;

void capture(cudaStream_t S, float *Out, float V, cudaGraphExec_t *X) {
  cudaGraph_t G;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);
  Sync.arrive_and_wait(); // Both captures are open.
  for (int I = 0; I < 4; ++I)
    fill<<<N / 256, 256, 0, S>>>(Out, V + I, N);
  Sync.arrive_and_wait();
  cudaStreamEndCapture(S, &G);
  cudaGraphInstantiate(X, G, 0);
  cudaGraphDestroy(G);
}

void bystander(cudaStream_t S) {
  Sync.arrive_and_wait();
  float *Scratch;
  cudaMalloc(&Scratch, N * sizeof(float)); // Legal: its own thread, not capturing.
  cudaMemsetAsync(Scratch, 0, N * sizeof(float), S);
  cudaStreamSynchronize(S);
  cudaFree(Scratch);
  Sync.arrive_and_wait();
}

int main() {
  cudaFree(0);
  float *A, *B;
  cudaMalloc(&A, N * sizeof(float));
  cudaMalloc(&B, N * sizeof(float));
  cudaStream_t SA, SB, SC;
  cudaStreamCreateWithFlags(&SA, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&SB, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&SC, cudaStreamNonBlocking);
  cudaGraphExec_t XA, XB;
  std::thread TA(capture, SA, A, 1.0f, &XA), TB(capture, SB, B, 10.0f, &XB), TC(bystander, SC);
  TA.join();
  TB.join();
  TC.join();
  cudaGraphLaunch(XA, SA);
  cudaGraphLaunch(XB, SB);
  cudaDeviceSynchronize();
  float Last;
  cudaMemcpy(&Last, B + N - 1, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("graph B wrote %.0f\n", Last);
  cudaFree(A); // Graph A still writes here.
  float *Other;
  cudaMalloc(&Other, N * sizeof(float));
  cudaGraphLaunch(XA, SA);
  cudaGraphLaunch(XB, SB);
  std::printf("replays: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaFree(Other);
  cudaFree(B);
  return 0;
}
