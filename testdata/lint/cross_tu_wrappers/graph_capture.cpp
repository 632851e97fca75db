// The wrappers' own bookkeeping and logging run once per capture by design:
// they are the capture mechanism, not host work the replays drop.
// expected-no-diagnostics
#include "graph_capture.h"

#include <iostream>
#include <map>

static std::map<cudaStream_t, int> CapturingStreams;
static bool IsCapturing = false;
static int CaptureId = 0;

void BeginCapture(cudaStream_t Stream) {
  std::cerr << "Begin to capture a CUDA graph on stream " << Stream << "\n";
  cudaStreamBeginCapture(Stream, cudaStreamCaptureModeThreadLocal);
  IsCapturing = true;
  CapturingStreams.emplace(Stream, ++CaptureId);
  std::cerr << "capture " << CaptureId << " started\n";
}

cudaGraph_t EndCapture(cudaStream_t Stream) {
  CapturingStreams.erase(Stream);
  std::cerr << "End capturing a CUDA graph\n";
  cudaGraph_t Graph = nullptr;
  cudaStreamEndCapture(Stream, &Graph);
  IsCapturing = false;
  return Graph;
}
