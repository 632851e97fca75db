// Library routines that cannot be captured, found in the capture itself and
// in what it reaches, and quiet behind a cudaStreamIsCapturing guard.
#include <cuda_runtime.h>

namespace cub {
struct DeviceSegmentedSort {
  template <typename K>
  static cudaError_t SortKeys(void *Temp, size_t &Bytes, const K *In, K *Out, int N, int Segs,
                              const int *Begin, const int *End, cudaStream_t S = 0);
};
} // namespace cub

struct cublasContext;
int cublasDestroy(cublasContext *Handle);

void sortSegments(const float *In, float *Out, int N, const int *Offsets, cudaStream_t s) {
  size_t Bytes = 0;
  cub::DeviceSegmentedSort::SortKeys(nullptr, Bytes, In, Out, N, 4, Offsets, Offsets + 1, s); // expected-error {{uncapturable-library-call}}
}

void sortIfAllowed(const float *In, float *Out, int N, const int *Offsets, cudaStream_t s) {
  cudaStreamCaptureStatus Status;
  cudaStreamIsCapturing(s, &Status);
  if (Status == cudaStreamCaptureStatusNone) {
    size_t Bytes = 0;
    cub::DeviceSegmentedSort::SortKeys(nullptr, Bytes, In, Out, N, 4, Offsets, Offsets + 1, s);
  }
}

void capture(const float *In, float *Out, int N, const int *Offsets, cudaStream_t s,
             cudaEvent_t Scratch, cublasContext *Blas) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  sortSegments(In, Out, N, Offsets, s);
  sortIfAllowed(In, Out, N, Offsets, s);
  cublasDestroy(Blas);                                                // expected-error {{uncapturable-library-call}}
  cudaEventDestroy(Scratch);                                          // Legal on the capturing thread.
  cudaStreamEndCapture(s, &g);
  cublasDestroy(Blas);
}
