// A C API called from graphed modules, written as Transformer Engine's
// nvte_zero_tensor was before its fix (upstream PR 1518): the amax reset
// uploads a stack variable and synchronizes the stream. Every capi_ function
// is an entry point (rules/c-api-capture.yaml); constructors that fill the
// object they just made, or hand back handles to new objects, are set-up.
#include <cuda_runtime.h>

struct Tensor {
  float *Data = nullptr;
  float *Amax = nullptr;
  size_t Bytes = 0;
  int Mode = 0;
};
struct TensorPack {
  Tensor *Items[4];
};

int Calls = 0;

Tensor *capi_create_tensor(int Mode) {
  Tensor *Ret = new Tensor;
  Ret->Mode = Mode;
  return Ret;
}

void capi_pack_create(TensorPack *Pack) {
  for (int I = 0; I < 4; ++I)
    Pack->Items[I] = reinterpret_cast<Tensor *>(new Tensor);
}

void capi_zero_tensor(const Tensor *T, cudaStream_t S) {
  if (T->Data)
    cudaMemsetAsync(T->Data, 0, T->Bytes, S);
  if (T->Amax) {
    float Zero = 0.0f;
    cudaMemcpyAsync(T->Amax, &Zero, sizeof(float), cudaMemcpyHostToDevice, S); // expected-error {{stack-memory-in-capture}}
  }
  cudaStreamSynchronize(S);                                                     // expected-error {{sync-device-synchronize}}
}

// The fix: a memset node, no host memory, no sync.
void capi_zero_tensor_fixed(const Tensor *T, cudaStream_t S) {
  if (T->Data)
    cudaMemsetAsync(T->Data, 0, T->Bytes, S);
  if (T->Amax)
    cudaMemsetAsync(T->Amax, 0, sizeof(float), S);
}

void capi_count_call() {
  ++Calls;                                                                      // expected-warning {{host-state-mutation}}
}

// Not part of the C API, and reached from nowhere under capture.
void helper_zero(float *Amax, cudaStream_t S) {
  float Zero = 0.0f;
  cudaMemcpyAsync(Amax, &Zero, sizeof(float), cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
}
