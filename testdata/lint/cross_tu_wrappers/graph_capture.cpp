// The wrappers' own bookkeeping and logging run once per capture by design:
// they are the capture mechanism, not host work the replays drop; so is what
// the project code they call keeps (a table of its own). A sync there is
// still one.
#include "graph_capture.h"

#include <iostream>
#include <map>

static std::map<cudaStream_t, int> CapturingStreams;
static bool IsCapturing = false;
static int CaptureId = 0;

// A project's own table, as frameworks keep one (PyTorch's flat_hash_map of
// the graphs being captured).
template <class K, class V> struct CaptureTable {
  K Keys[16];
  V Values[16];
  int Size = 0;
  int Grows = 0;
  void put(K Key, V Value) {
    if (Size == 16) {
      ++Grows;
      Size = 0;
      std::cerr << "capture table wrapped\n";
    }
    Keys[Size] = Key;
    Values[Size] = Value;
    ++Size;
  }
};
static CaptureTable<cudaStream_t, int> Table;

static void checkDevice() {
  cudaDeviceSynchronize(); // expected-error {{sync-device-synchronize}}
}

void BeginCapture(cudaStream_t Stream) {
  std::cerr << "Begin to capture a CUDA graph on stream " << Stream << "\n";
  cudaStreamBeginCapture(Stream, cudaStreamCaptureModeThreadLocal);
  IsCapturing = true;
  CapturingStreams.emplace(Stream, ++CaptureId);
  Table.put(Stream, CaptureId);
  checkDevice();
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
