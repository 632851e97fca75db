// A backend library written as ggml's CUDA backend was before llama.cpp
// PR 14033: the public lib_buffer_clear reaches the CUDA implementation
// through the buffer's interface table, and that clear synchronizes the whole
// device. Applications call it from other threads while a compute thread
// captures (relaxed mode), so the sync can invalidate that capture.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

struct Buffer;
struct BufferInterface {
  void (*clear)(Buffer *B, uint8_t Value);
  void (*clear_fixed)(Buffer *B, uint8_t Value);
};
struct Buffer {
  BufferInterface Iface;
  void *Dev;
  size_t Size;
};

static void cudaBufferClear(Buffer *B, uint8_t Value) {
  cudaDeviceSynchronize(); // expected-warning {{thread-syncs-device-during-capture}}
  cudaMemset(B->Dev, Value, B->Size); // Relaxed mode, non-blocking stream: allowed.
  cudaDeviceSynchronize(); // expected-warning {{thread-syncs-device-during-capture}}
}

// The upstream fix.
static void cudaBufferClearFixed(Buffer *B, uint8_t Value) {
  cudaMemsetAsync(B->Dev, Value, B->Size, cudaStreamPerThread);
  cudaStreamSynchronize(cudaStreamPerThread);
}

static const BufferInterface CudaInterface = {
    /* .clear = */ cudaBufferClear,
    /* .clear_fixed = */ cudaBufferClearFixed,
};

Buffer *lib_buffer_make(void *Dev, size_t Size) { return new Buffer{CudaInterface, Dev, Size}; }
void lib_buffer_clear(Buffer *B, uint8_t Value) { B->Iface.clear(B, Value); }
void lib_buffer_clear_fixed(Buffer *B, uint8_t Value) { B->Iface.clear_fixed(B, Value); }

// Not an API other threads call: its device sync is no other thread's.
void lib_shutdown() { cudaDeviceSynchronize(); }

__global__ void step(float *X) { X[threadIdx.x] += 1.0f; }

void lib_graph_compute(cudaStream_t S, float *X, cudaGraph_t *G) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeRelaxed); // expected-note {{relaxed-capture-mode}}
  step<<<1, 32, 0, S>>>(X);
  cudaStreamEndCapture(S, G);
}
