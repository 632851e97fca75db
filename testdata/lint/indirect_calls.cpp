// Calls through std::function, function pointers and stored lambdas: the
// capture calls `step.fn(x)` and reaches every callable stored where the call
// reads from, so a sync inside one of them is found, with the call chain.
#include <cuda_runtime.h>

#include <functional>
#include <vector>

struct Step {
  const char *Name;
  std::function<void(float *)> Fn;
};

void syncingHelper(cudaStream_t s) {
  cudaStreamSynchronize(s);                                 // expected-error {{sync-device-synchronize}}
}
void asyncHelper(cudaStream_t s) { cudaMemsetAsync(nullptr, 0, 0, s); }
void quietHelper(cudaStream_t) {}

struct Trainer {
  std::function<void()> OnStep;
  std::vector<std::function<void()>> Hooks;
  Trainer() : OnStep([] { cudaDeviceSynchronize(); }) {}   // expected-error {{sync-device-synchronize}}
};

void train(float *d, cudaStream_t s, bool Fast, Trainer &T) {
  Step Forward{"forward", [&](float *x) {
                 float Host;
                 cudaMemcpy(&Host, x, sizeof Host, cudaMemcpyDeviceToHost); // expected-error {{sync-legacy-memcpy}}
               }};
  void (*Pick)(cudaStream_t) = Fast ? asyncHelper : syncingHelper;
  void (*Unused)(cudaStream_t) = quietHelper;
  T.Hooks.push_back([] { cudaDeviceSynchronize(); });      // expected-error {{sync-device-synchronize}}
  std::function<void()> Log = [] {};
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  Forward.Fn(d);
  Pick(s);
  T.OnStep();
  T.Hooks[0]();
  Log();
  cudaStreamEndCapture(s, &g);
  Unused(s);
}

// Objects made by a factory run their constructor where the factory is called:
// a context built lazily inside the captured step allocates there.
#include <memory>

struct DeviceContext {
  float *Workspace = nullptr;
  explicit DeviceContext(size_t Bytes) {
    cudaMalloc(&Workspace, Bytes);                          // expected-error {{alloc-in-capture}}
  }
  DeviceContext() = default;                                // not made inside the capture below
};

struct Scratch {
  float *Buffer = nullptr;
  Scratch(int, int) { cudaMalloc(&Buffer, 64); }            // made before capture: quiet
};

void lazyContext(cudaStream_t s, std::shared_ptr<Scratch> &Pre) {
  Pre = std::make_shared<Scratch>(1, 2);
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  auto Ctx = std::make_unique<DeviceContext>(size_t{1} << 20);
  cudaStreamEndCapture(s, &g);
}

// A callable handed to a setter and moved into a member is what the member
// call runs later, from the captured step.
class StepRunner {
public:
  void setCallback(std::function<void(cudaStream_t)> Cb) { OnStep = std::move(Cb); }
  explicit StepRunner(std::function<void(cudaStream_t)> Init) : OnInit(std::move(Init)) {}
  void step(cudaStream_t s) {
    OnStep(s);
    OnInit(s);
  }

private:
  std::function<void(cudaStream_t)> OnStep, OnInit;
};

void runnerCapture(cudaStream_t s) {
  StepRunner R([](cudaStream_t st) { cudaStreamSynchronize(st); }); // expected-error {{sync-device-synchronize}}
  R.setCallback([](cudaStream_t) { cudaDeviceSynchronize(); });     // expected-error {{sync-device-synchronize}}
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  R.step(s);
  cudaStreamEndCapture(s, &g);
}

// A C API's table of function pointers, filled in when a notification is
// made under the capture: the functions run where the table is called. Only
// the wait on the device is (from the captured step); the wait on the host
// runs on another path, after the capture.
struct NotificationApi {
  void (*WaitOnDevice)(cudaStream_t, cudaEvent_t);
  void (*WaitOnHost)(cudaEvent_t);
};
struct Notification : NotificationApi {
  cudaEvent_t Event;
  Notification() {
    cudaEventCreateWithFlags(&Event, cudaEventDisableTiming);
    WaitOnDevice = waitOnDevice;
    WaitOnHost = &waitOnHost;
  }
  static void waitOnDevice(cudaStream_t s, cudaEvent_t e) {
    cudaStreamWaitEvent(s, e, 0);
    cudaStreamSynchronize(s);                                 // expected-error {{sync-device-synchronize}}
  }
  static void waitOnHost(cudaEvent_t e) { cudaEventSynchronize(e); }
};

void notifyCapture(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  Notification N;
  N.WaitOnDevice(s, N.Event);
  cudaStreamEndCapture(s, &g);
  N.WaitOnHost(N.Event);
}

// Member function pointers and std::bind: the call runs the method or the
// function the pointer or the binder was made from, and no other.
struct Stage {
  void drain(cudaStream_t s) {
    cudaStreamSynchronize(s);                                 // expected-error {{sync-device-synchronize}}
  }
  void launch(cudaStream_t s) { cudaMemsetAsync(nullptr, 0, 0, s); }
  void check(cudaStream_t s) { cudaStreamSynchronize(s); } // never stored
};
void flushAll(cudaStream_t s, int Pending) {
  cudaDeviceSynchronize();                                   // expected-error {{sync-device-synchronize}}
}
void flushQuiet(cudaStream_t s, int) { cudaMemsetAsync(nullptr, 0, 0, s); }

void stagedCapture(cudaStream_t s, Stage &St, bool Drain) {
  void (Stage::*Step)(cudaStream_t) = Drain ? &Stage::drain : &Stage::launch;
  auto Flush = std::bind(flushAll, std::placeholders::_1, 4);
  std::function<void(cudaStream_t)> Quiet = std::bind(flushQuiet, std::placeholders::_1, 0);
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  (St.*Step)(s);
  Flush(s);
  Quiet(s);
  cudaStreamEndCapture(s, &g);
}

// Callables a function returns: calling its result runs what its returns
// give, and a factory returning only capture-safe work adds nothing.
std::function<void(cudaStream_t)> makeDrain(bool Blocking) {
  if (Blocking)
    return [](cudaStream_t s) {
      cudaStreamSynchronize(s);                               // expected-error {{sync-device-synchronize}}
    };
  return [](cudaStream_t s) { cudaMemsetAsync(nullptr, 0, 0, s); };
}
std::function<void(cudaStream_t)> makeLaunch() {
  return [](cudaStream_t s) { cudaMemsetAsync(nullptr, 0, 0, s); };
}
void (*pickFlush(int Kind))(cudaStream_t) { return Kind ? asyncHelper : quietHelper; }

void returnedCapture(cudaStream_t s, bool Blocking, int Kind) {
  auto Drain = makeDrain(Blocking);
  auto Launch = makeLaunch();
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  Drain(s);
  Launch(s);
  pickFlush(Kind)(s);
  cudaStreamEndCapture(s, &g);
}
