// Async copies and host functions under capture keep raw host addresses:
// host memory of the capturing frame is dead at every replay.
#include <cuda_runtime.h>

#include <vector>

static float g_one = 1.0f;

struct Uploader {
  float Scale = 2.0f;
  std::vector<float> Table = std::vector<float>(32, 0.0f);
};

void CUDART_CB report(void *) {}

void capture(float *d, cudaStream_t s, Uploader &Keep, const float *PinnedHost) {
  cudaGraph_t g;
  float Zero = 0.0f;
  float Row[32] = {};
  std::vector<float> Local(32, 1.0f);
  int Steps = 0;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(d, &Zero, sizeof Zero, cudaMemcpyHostToDevice, s);          // expected-error {{stack-memory-in-capture}}
  cudaMemcpyAsync(d, Row, sizeof Row, cudaMemcpyHostToDevice, s);             // expected-error {{stack-memory-in-capture}}
  cudaMemcpyAsync(d, Local.data(), 128, cudaMemcpyHostToDevice, s);           // expected-error {{stack-memory-in-capture}}
  cudaMemcpyAsync(&Zero, d, sizeof Zero, cudaMemcpyDeviceToHost, s);          // expected-error {{stack-memory-in-capture}}
  cudaLaunchHostFunc(s, report, &Steps);                                      // expected-error {{stack-memory-in-capture}}
  cudaMemcpyAsync(d, &g_one, sizeof g_one, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(d, &Keep.Scale, sizeof Keep.Scale, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(d, Keep.Table.data(), 128, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(d, PinnedHost, 128, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(d, d + 32, 128, cudaMemcpyDeviceToDevice, s);
  cudaMemsetAsync(d, 0, 128, s);
  cudaStreamEndCapture(s, &g);
  cudaMemcpyAsync(d, &Zero, sizeof Zero, cudaMemcpyHostToDevice, s);         // Outside capture: runs now.
}

// Capture, launch and read back in one function: the frame outlives every
// replay, so its locals are fine (the vendor samples' pattern).
double captureAndRun(double *d, cudaStream_t s) {
  double Sum = 0.0;
  cudaGraph_t g;
  cudaGraphExec_t Exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(&Sum, d, sizeof Sum, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&Exec, g, 0);
  for (int I = 0; I < 10; ++I)
    cudaGraphLaunch(Exec, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(Exec);
  return Sum;
}
