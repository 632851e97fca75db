// The op dispatcher and its kernels live in another translation unit from
// the capture: the uncapturable segmented sort is found through the
// per-function summaries merged across the files of one run.
#include "ops.h"

static void topK(float *Data, int N, const int *Offsets, cudaStream_t S) {
  size_t Bytes = 0;
  // expected-error@+1 {{uncapturable-library-call}}
  cub::DeviceSegmentedSort::SortPairs(nullptr, Bytes, Data, Data, nullptr, nullptr, N, 8, Offsets,
                                      Offsets + 1, S);
}

static void scale(float *Data, int N, cudaStream_t S) { cudaMemsetAsync(Data, 0, N, S); }

void dispatch(Op Which, float *Data, int N, cudaStream_t S) {
  switch (Which) {
  case Op::TopK:
    return topK(Data, N, nullptr, S);
  case Op::Scale:
    return scale(Data, N, S);
  }
}
