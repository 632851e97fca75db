// What one CUDA API call costs the host, in nanoseconds, for the calls a
// PyTorch training step makes most: a runtime call the runtime answers alone
// (cudaGetDevice, which every device guard makes), a runtime call that goes
// to the driver (cudaStreamQuery), a kernel launch and a driver call made
// directly (cuCtxGetCurrent). Run plain and under an injection
// (CUDA_INJECTION64_PATH: graphcheck, or a cupti_floor.cpp baseline) to see
// what the injection adds to each call. Prints "name ns_per_call", best of 5.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void empty() {}

template <typename Fn> double nsPerCall(int N, Fn &&F) {
  double Best = 1e30;
  for (int Round = 0; Round < 5; ++Round) {
    auto T0 = std::chrono::steady_clock::now();
    for (int I = 0; I < N; ++I)
      F();
    auto T1 = std::chrono::steady_clock::now();
    Best = std::min(Best, std::chrono::duration<double, std::nano>(T1 - T0).count() / N);
  }
  return Best;
}

int main(int Argc, char **Argv) {
  int N = Argc > 1 ? std::atoi(Argv[1]) : 200000;
  cudaStream_t S;
  cudaStreamCreate(&S);
  cudaFree(nullptr);
  int Dev = 0;
  CUcontext Ctx;
  std::printf("cudaGetDevice %.1f\n", nsPerCall(N, [&] { cudaGetDevice(&Dev); }));
  std::printf("cudaStreamQuery %.1f\n", nsPerCall(N, [&] { cudaStreamQuery(S); }));
  std::printf("cuCtxGetCurrent %.1f\n", nsPerCall(N, [&] { cuCtxGetCurrent(&Ctx); }));
  std::printf("launch %.1f\n", nsPerCall(N / 4, [&] {
                empty<<<1, 1, 0, S>>>();
                static int K = 0;
                if (++K % 1024 == 0)
                  cudaStreamSynchronize(S);
              }));
  cudaStreamSynchronize(S);
  return 0;
}
