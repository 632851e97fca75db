// A callable handed to a parameter runs, through that parameter, what the call
// that reached the function handed it: a thread pool's Schedule(fn) that the
// capture calls with its step, and a shutdown path calls with a job that waits
// on the device, does not run that job under the capture. Handed on to
// another parameter (std::move(Fn)) it stays the step.
#include <cuda_runtime.h>

#include <functional>
#include <utility>

struct Pool {
  static void Schedule(Pool *P, std::function<void()> Fn) {
    if (P)
      P->Run(std::move(Fn));
    else
      Fn();
  }
  void Run(std::function<void()> Fn) { Fn(); }
};

void launchStep(float *D, cudaStream_t S) { cudaMemsetAsync(D, 0, 64, S); }
void flushDevice() { cudaDeviceSynchronize(); }

void shutdown(Pool *P) { Pool::Schedule(P, [] { flushDevice(); }); }

void capture(Pool *P, float *D, cudaStream_t S) {
  cudaGraph_t G;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);
  Pool::Schedule(P, [&] { launchStep(D, S); });
  Pool::Schedule(P, [&] { cudaStreamSynchronize(S); }); // expected-error {{sync-device-synchronize}}
  cudaStreamEndCapture(S, &G);
}
