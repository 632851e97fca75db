// Function objects stored into a std::function run their operator() where
// the std::function is called. A function that stores one and then calls the
// member runs that one on every path, whatever it stores there afterwards
// (trtexec stores the graph launcher right after its capture).
#include <cuda_runtime.h>
#include <functional>

#include "forwarding_ref.h"

using EnqueueFn = std::function<bool(cudaStream_t)>;

struct WaitingEnqueue {
  explicit WaitingEnqueue(int Batch) : Batch(Batch) {}
  bool operator()(cudaStream_t S) const {
    return cudaStreamSynchronize(S) == cudaSuccess; // expected-error {{sync-device-synchronize}}
  }
  int Batch;
};

struct PlainEnqueue {
  PlainEnqueue(int Batch, int Streams) : Batch(Batch), Streams(Streams) {}
  bool operator()(cudaStream_t S) const { return Batch + Streams > 0 && S != nullptr; }
  int Batch, Streams;
};

// Runs only after the capture: it waits for the replay it launched.
struct LaunchAndWait {
  explicit LaunchAndWait(cudaGraphExec_t Exec) : Exec(Exec) {}
  bool operator()(cudaStream_t S) const {
    return cudaGraphLaunch(Exec, S) == cudaSuccess && cudaStreamSynchronize(S) == cudaSuccess;
  }
  cudaGraphExec_t Exec;
};

// Built nowhere: a namesake of what is captured.
struct UnusedEnqueue {
  bool operator()(cudaStream_t) const { return cudaDeviceSynchronize() == cudaSuccess; }
};

// Stored after the capture below, for the steps that follow it.
bool waitForReplays(cudaStream_t S) { return cudaStreamSynchronize(S) == cudaSuccess; }

// Stored at the end of each turn of a loop: the next turn's capture runs it.
bool drainEachTurn(cudaStream_t S) {
  return cudaStreamSynchronize(S) == cudaSuccess; // expected-error {{sync-device-synchronize}}
}

bool flushEachStep(cudaStream_t S) {
  return cudaStreamSynchronize(S) == cudaSuccess; // expected-error {{sync-device-synchronize}}
}

class Runner {
public:
  void captureWaiting(cudaStream_t S) {
    Enqueue = EnqueueFn(WaitingEnqueue(8));
    cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);
    Enqueue(S);
    cudaStreamEndCapture(S, &Graph);
  }

  void capturePlain(cudaStream_t S) {
    Other = EnqueueFn(PlainEnqueue(8, 2));
    cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);
    Other(S);
    cudaStreamEndCapture(S, &Graph);
    cudaGraphInstantiate(&Exec, Graph, nullptr, nullptr, 0);
    Other = EnqueueFn(LaunchAndWait(Exec));
  }

  void captureLambda(cudaStream_t S) {
    Launch = [](cudaStream_t) { return true; };
    cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);
    Launch(S);
    cudaStreamEndCapture(S, &Graph);
    cudaGraphInstantiate(&Exec, Graph, nullptr, nullptr, 0);
    Launch = &waitForReplays;
  }

  void captureEachTurn(cudaStream_t S, int Turns) {
    Step = EnqueueFn(PlainEnqueue(1, 1));
    for (int I = 0; I < Turns; ++I) {
      cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);
      Step(S);
      cudaStreamEndCapture(S, &Graph);
      Step = &drainEachTurn;
    }
  }

  // A library reference made from a function: the function runs, not the
  // library's forwarding operator().
  void captureThroughRef(cudaStream_t S) {
    Forwarded = EnqueueFn(ForwardingRef<bool(cudaStream_t)>(flushEachStep));
    cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);
    Forwarded(S);
    cudaStreamEndCapture(S, &Graph);
  }

  void step(cudaStream_t S) {
    Other(S);
    Launch(S);
  }

private:
  EnqueueFn Enqueue, Other, Launch, Step, Forwarded;
  cudaGraph_t Graph{};
  cudaGraphExec_t Exec{};
};
