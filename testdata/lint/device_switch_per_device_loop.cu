// One thread capturing on several GPUs, one capturing stream per device (the
// pattern of NCCL's tests): switching to device i and then enqueueing on
// stream i sends each device's work to its own capture, and per-device set-up
// with no stream work sends nothing. Switching and then using a stream that is
// not that device's still warns.
#include <cuda_runtime.h>

#include <vector>

__global__ void fill(float *p) { p[threadIdx.x] = 1.0f; }

struct Args {
  int nGpus;
  int *gpus;
  cudaStream_t *streams;
  float **buffers;
};

void captureAll(Args *args, std::vector<cudaGraph_t> &graphs) {
  for (int i = 0; i < args->nGpus; i++)
    cudaStreamBeginCapture(args->streams[i], cudaStreamCaptureModeThreadLocal);
  for (int i = 0; i < args->nGpus; i++) {
    cudaSetDevice(args->gpus[i]);
    fill<<<1, 32, 0, args->streams[i]>>>(args->buffers[i]);
    cudaMemsetAsync(args->buffers[i], 0, 128, args->streams[i]);
  }
  for (int i = 0; i < args->nGpus; i++)
    cudaStreamEndCapture(args->streams[i], &graphs[i]);
}

// Per-device set-up (events, no stream work) between captures of each device's stream.
void createEvents(Args *args, cudaEvent_t *events, std::vector<cudaGraph_t> &graphs) {
  for (int i = 0; i < args->nGpus; i++)
    cudaStreamBeginCapture(args->streams[i], cudaStreamCaptureModeThreadLocal);
  for (int i = 0; i < args->nGpus; i++) {
    cudaSetDevice(args->gpus[i]);
    cudaEventCreateWithFlags(&events[i], cudaEventDisableTiming);
  }
  for (int i = 0; i < args->nGpus; i++)
    cudaStreamEndCapture(args->streams[i], &graphs[i]);
}

void captureMismatched(Args *args, cudaStream_t s, std::vector<cudaGraph_t> &graphs) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  for (int i = 0; i < args->nGpus; i++) {
    cudaSetDevice(args->gpus[i]); // expected-warning {{device-switch-in-capture}}
    cudaMemsetAsync(args->buffers[i], 0, 128, s);
  }
  for (int j = 0; j < args->nGpus; j++) {
    cudaSetDevice(args->gpus[j]); // expected-warning {{device-switch-in-capture}}
    cudaMemsetAsync(args->buffers[j], 0, 128, args->streams[0]); // expected-error {{side-stream-without-fork}}
  }
  cudaStreamEndCapture(s, &graphs[0]);
}
