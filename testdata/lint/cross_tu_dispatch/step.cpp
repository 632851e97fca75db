// The capture region is here; its findings are in the file it reaches.
// expected-no-diagnostics
#include "ops.h"

void step(float *Data, int N, cudaStream_t S) {
  cudaGraph_t G;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  dispatch(Op::Scale, Data, N, S);
  dispatch(Op::TopK, Data, N, S);
  cudaStreamEndCapture(S, &G);
}
