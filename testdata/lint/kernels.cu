// CUDA sources are analysed host-side: raw stream capture, kernel launches,
// default-stream work, allocation, seeds drawn on the host, forks and joins.
#include <cuda_runtime.h>
#include <cstdlib>

__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }
__global__ void noise(float *x, unsigned long long seed) { x[threadIdx.x] = seed; }

void unsafe(float *d, cudaStream_t s, cudaStream_t side, cudaEvent_t ev) {
  cudaGraph_t g;
  cudaEventRecord(ev, s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scale<<<1, 32>>>(d, 2.0f);                            // expected-error {{default-stream-in-capture}}
  scale<<<1, 32, 0, 0>>>(d, 2.0f);                      // expected-error {{default-stream-in-capture}}
  scale<<<1, 32, 0, s>>>(d, 2.0f);
  noise<<<1, 32, 0, s>>>(d, std::rand());               // expected-warning {{rng-host-seeded-kernel}}
  cudaMemcpyAsync(d, d + 32, 128, cudaMemcpyDeviceToDevice, 0); // expected-error {{default-stream-in-capture}}
  cudaMemsetAsync(d, 0, 128, cudaStreamLegacy);         // expected-error {{default-stream-in-capture}}
  float *tmp;
  cudaMalloc(&tmp, 128);                                // expected-error {{alloc-in-capture}}
  cudaFree(tmp);                                        // expected-error {{alloc-in-capture}}
  float *ok;
  cudaMallocAsync(&ok, 128, s);
  cudaFreeAsync(ok, s);
  cudaStreamWaitEvent(s, ev, 0);                        // expected-error {{wait-on-external-event}}
  scale<<<1, 32, 0, side>>>(d, 3.0f);                   // expected-error {{side-stream-without-fork}}
  cudaSetDevice(1);                                     // expected-warning {{device-switch-in-capture}}
  cudaStreamEndCapture(side, &g);                       // expected-error {{capture-end-other-stream}}
}

void capture_into_graph(float *d, cudaStream_t s, cudaGraph_t into) {
  cudaStreamBeginCaptureToGraph(s, into, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal);
  scale<<<1, 32, 0, s>>>(d, 2.0f);
  cudaStreamSynchronize(s);                             // expected-error {{sync-device-synchronize}}
  cudaStreamEndCapture(s, &into);
}

void capture_legacy(float *d) {
  cudaGraph_t g;
  cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal); // expected-error {{capture-on-default-stream}}
  cudaStreamEndCapture(0, &g);
}

void relaxed(float *d, cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed); // expected-note {{relaxed-capture-mode}}
  scale<<<1, 32, 0, s>>>(d, 2.0f);
  cudaStreamEndCapture(s, &g);
}

void fork_without_join(float *d, cudaStream_t s, cudaStream_t side, cudaEvent_t fork) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, s);
  cudaStreamWaitEvent(side, fork, 0);
  scale<<<1, 32, 0, side>>>(d, 2.0f);
  cudaStreamEndCapture(s, &g);                          // expected-error {{fork-not-joined}}
}

// The fork/join pattern done right: side work forked from and joined back
// into the capture stream, device-side seeds, async allocation.
void safe(float *d, cudaStream_t s, cudaStream_t side, cudaEvent_t fork, cudaEvent_t join,
          const unsigned long long *seed_on_device) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, s);
  cudaStreamWaitEvent(side, fork, 0);
  scale<<<1, 32, 0, side>>>(d, 2.0f);
  scale<<<1, 32, 0, s>>>(d + 32, 2.0f);
  cudaEventRecord(join, side);
  cudaStreamWaitEvent(s, join, 0);
  cudaMemcpyAsync(d, d + 32, 128, cudaMemcpyDeviceToDevice, s);
  cudaStreamEndCapture(s, &g);
  scale<<<1, 32>>>(d, 1.0f);
  cudaDeviceSynchronize();
}
