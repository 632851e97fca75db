// A capture begun once and ended in either branch of an if (a good end and
// an end on error, as TensorRT's trtexec does) is one region per path: the
// code before the begin is not captured, and nothing after the begin leaves
// the capture open.
#include <cuda_runtime.h>
#include <functional>
#include <stdexcept>

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    if ((x) != cudaSuccess)                                                                        \
      throw std::runtime_error("cuda");                                                            \
  } while (0)

struct Stream {
  cudaStream_t S{};
  void synchronize() { CHECK(cudaStreamSynchronize(S)); } // expected-error {{sync-device-synchronize}}
};

class Graph {
public:
  void beginCapture(Stream &St) {
    CHECK(cudaStreamBeginCapture(St.S, cudaStreamCaptureModeThreadLocal));
  }
  void endCapture(Stream &St) {
    CHECK(cudaStreamEndCapture(St.S, &G));
    CHECK(cudaGraphInstantiate(&Exec, G, nullptr, nullptr, 0));
  }
  void endCaptureOnError(Stream &St) {
    const cudaError_t Ret = cudaStreamEndCapture(St.S, &G);
    if (Ret != cudaErrorStreamCaptureInvalidated)
      CHECK(cudaGraphDestroy(G));
    G = nullptr;
    cudaGetLastError();
  }

private:
  cudaGraph_t G{};
  cudaGraphExec_t Exec{};
};

bool enqueueWork(Stream &S);

struct Iteration {
  Graph TheGraph;
  std::function<bool(Stream &)> Enqueue;
  Stream TheStream;

  // Warm-up and syncs before the begin run eagerly; the throw before it
  // leaves no capture open.
  void create(bool UseGraph) {
    Enqueue = [](Stream &S) { return enqueueWork(S); };
    if (!UseGraph)
      return;
    TheStream.synchronize();
    if (!Enqueue(TheStream))
      throw std::runtime_error("enqueue failed");
    TheStream.synchronize();
    TheGraph.beginCapture(TheStream);
    if (Enqueue(TheStream)) {
      TheGraph.endCapture(TheStream);
      TheStream.synchronize();
    } else {
      TheGraph.endCaptureOnError(TheStream);
    }
  }

  // The branch that ends on error still runs under the capture up to its end.
  void createChecked(bool UseGraph) {
    TheGraph.beginCapture(TheStream); // expected-warning {{throw-leaves-capture-open}}
    if (UseGraph && Enqueue(TheStream)) {
      TheGraph.endCapture(TheStream);
    } else {
      TheStream.synchronize();
      TheGraph.endCaptureOnError(TheStream);
    }
  }
};

// A capture written as one macro: its begin and its end share the place the
// macro is expanded, and are still two events.
#define CAPTURED(S, G, BODY)                                                                       \
  do {                                                                                             \
    cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);                                   \
    BODY;                                                                                          \
    cudaStreamEndCapture(S, &G);                                                                   \
  } while (0)

void waitFor(cudaStream_t S) {
  cudaStreamSynchronize(S); // expected-error {{sync-device-synchronize}}
}

void captureByMacro(cudaStream_t S) {
  cudaGraph_t G;
  CAPTURED(S, G, waitFor(S));
  cudaDeviceSynchronize();
}
