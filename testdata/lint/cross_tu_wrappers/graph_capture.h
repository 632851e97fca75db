#pragma once
#include <cuda_runtime.h>

// A framework's capture wrappers (in the style of Paddle's
// BeginCUDAGraphCapture/EndCUDAGraphCapture): the capture begins in one
// function and ends in another, both defined in graph_capture.cpp.
void BeginCapture(cudaStream_t Stream);
cudaGraph_t EndCapture(cudaStream_t Stream);

// An execution provider's hooks around a run (ONNX Runtime's OnRunStart and
// OnRunEnd), themselves wrappers of the wrappers above, in provider.cpp.
void OnRunStart(cudaStream_t Stream);
void OnRunEnd(cudaStream_t Stream);

void LaunchModel(float *Data, cudaStream_t Stream);

// The hooks as ONNX Runtime declares them: virtual methods of the provider
// interface, called through it; the graph provider's overrides begin and end
// the capture when graphs are on.
struct ExecutionProvider {
  virtual ~ExecutionProvider() = default;
  virtual int OnRunStart(cudaStream_t) { return 0; }
  virtual int OnRunEnd(cudaStream_t) { return 0; }
};
struct GraphProvider : ExecutionProvider {
  bool GraphsOn = true;
  int OnRunStart(cudaStream_t Stream) override;
  int OnRunEnd(cudaStream_t Stream) override;
};
// Its end hook returns early, doing eager work, when graphs are off: the very
// condition on which the start hook skipped its begin (Paddle's and ONNX
// Runtime's end wrappers are written so).
struct EagerFallbackProvider : ExecutionProvider {
  bool GraphsOn = true;
  int OnRunStart(cudaStream_t Stream) override;
  int OnRunEnd(cudaStream_t Stream) override;
};
