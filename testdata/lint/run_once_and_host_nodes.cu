// What real capture code does that is not a hazard: a host function enqueued
// with cudaLaunchHostFunc runs at every replay (its I/O and counters are
// replayed, not dropped); lazy set-up behind an unset check and a static's
// initialiser run once, during warm-up, before any capture; a stream picked
// from an array by an index that holds the capture stream's index, or named
// again by a local, is the capture stream. Their unsafe twins stay reported.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

__global__ void touch(float *x) { x[threadIdx.x] += 1.0f; }

static int g_replays = 0;
void CUDART_CB onReplay(void *) {
  ++g_replays;
  std::printf("replay %d\n", g_replays);
}

struct Workspace {
  float *Ptr = nullptr;
  bool Ready = false;
};
static Workspace g_ws;

float *workspace(size_t Bytes) {
  if (g_ws.Ptr == nullptr)
    cudaMalloc(&g_ws.Ptr, Bytes);
  if (!g_ws.Ready) {
    cudaMemset(g_ws.Ptr, 0, Bytes);
    g_ws.Ready = true;
  }
  return g_ws.Ptr;
}

// Lazy set-up of one handle per device and stream, as inference libraries do.
struct Handles {
  void *Blas[8][4] = {};
  void *get(int Device, int Stream) {
    if (Blas[Device][Stream] == nullptr)
      cudaMalloc(&Blas[Device][Stream], 1 << 20);
    return Blas[Device][Stream];
  }
};
static Handles g_handles;

int deviceCount() {
  static int Count = [] {
    int N = 0;
    cudaGetDeviceCount(&N);
    std::printf("%d devices\n", N);
    return N;
  }();
  return Count;
}

void capture(float *d, cudaStream_t *streams, cudaStream_t other) {
  const int Main = 0;
  int Cur = Main;
  cudaStream_t s = streams[Cur];
  cudaGraph_t g;
  cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal);
  touch<<<1, 32, 0, s>>>(d);
  touch<<<1, 32, 0, streams[Main]>>>(d);
  cudaLaunchHostFunc(s, onReplay, nullptr);
  touch<<<1, 32, 0, s>>>(workspace(1024));
  touch<<<1, 32, 0, s>>>(static_cast<float *>(g_handles.get(0, 0)));
  touch<<<1, 32, 0, streams[1]>>>(d);                      // expected-error {{side-stream-without-fork}}
  if (deviceCount() > 1)
    std::printf("several devices\n");                       // expected-warning {{host-io-in-capture}}
  float *Scratch = nullptr;
  if (Scratch == nullptr)
    cudaMalloc(&Scratch, 128);                              // expected-error {{alloc-in-capture}}
  cudaStreamEndCapture(streams[0], &g);
}

void CUDART_CB logged(void *) { std::printf("logged\n"); }

// A host function named through a local; streams kept in a std::vector,
// forked in a loop and used in a loop.
void vectorOfStreams(float *d, std::vector<cudaStream_t> &Streams, cudaEvent_t *Events,
                     int Width) {
  cudaGraph_t g;
  cudaStreamBeginCapture(Streams[0], cudaStreamCaptureModeGlobal);
  int Idx = 0;
  touch<<<1, 32, 0, Streams[Idx]>>>(d);
  cudaHostFn_t Fn = logged;
  cudaLaunchHostFunc(Streams[0], Fn, nullptr);
  cudaEventRecord(Events[0], Streams[0]);
  for (int I = 1; I < Width; ++I)
    cudaStreamWaitEvent(Streams[I], Events[0], 0);
  for (int I = 0; I < Width; ++I) {
    Idx = I;
    touch<<<1, 32, 0, Streams[Idx]>>>(d);
  }
  for (int I = 1; I < Width; ++I) {
    cudaEventRecord(Events[I], Streams[I]);
    cudaStreamWaitEvent(Streams[0], Events[I], 0);
  }
  cudaStreamEndCapture(Streams[0], &g);
}

void reassignedAlias(float *d, cudaStream_t main, cudaStream_t other) {
  cudaStream_t s = main;
  s = other;
  cudaGraph_t g;
  cudaStreamBeginCapture(main, cudaStreamCaptureModeGlobal);
  touch<<<1, 32, 0, s>>>(d);                                // expected-error {{side-stream-without-fork}}
  cudaStreamEndCapture(main, &g);
}
