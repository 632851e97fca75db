// CUDA injection entry point (CUDA_INJECTION64_PATH): subscribes to CUPTI and
// routes each callback to its domain's handler. It never changes what the
// program computes: callbacks only observe, and if CUPTI cannot be used the
// program runs unobserved after one message on stderr.
#include "AllocatorBlocks.h"
#include "Callbacks.h"
#include "KernelParams.h"
#include "MemoryMap.h"
#include "Recorder.h"
#include "ReentryGuard.h"
#include "SelfTime.h"
#include "TraceWriter.h"

#include <cupti.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace graphsafe::inject {

namespace {

CUpti_SubscriberHandle Subscriber;
// Set once graphcheck has handed CUPTI to a profiler: the handle is gone.
std::atomic<bool> Yielded{false};
// How many times the runtime domain has been narrowed (ReentryGuard.h).
std::atomic<unsigned> Narrowings{0};

bool watchedWhenNarrow(unsigned Cbid) {
  size_t N = 0;
  const CUpti_CallbackId *Ids = watchedRuntimeCalls(N);
  return std::find(Ids, Ids + N, Cbid) != Ids + N;
}

// Callbacks CUPTI delivered, by where they went, for the trace's closing
// statistics: a kept trace tells which calls a slow loop paid a callback for
// (CUPTI's presence costs every API call besides, delivered or not).
enum CallbackCount {
  RuntimeCallbacks,
  DriverCallbacks,
  DriverInRuntime,
  ResourceCallbacks,
  NCounts
};
std::atomic<uint64_t> Delivered[NCounts];

void count(CallbackCount C) { Delivered[C].fetch_add(1, std::memory_order_relaxed); }

void onResource(CUpti_CallbackId Cbid, const CUpti_ResourceData *Data) {
  if (Cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED) {
    auto *Module = static_cast<CUpti_ModuleResourceData *>(Data->resourceDescriptor);
    if (Module && Module->pCubin)
      rememberModule(Module->pCubin, Module->cubinSize);
  } else if (Cbid == CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED) {
    auto *G = static_cast<CUpti_GraphData *>(Data->resourceDescriptor);
    if (G && G->graph && G->graphExec)
      recordExecCreated(G->graph, G->graphExec);
  }
}

void CUPTIAPI callback(void *, CUpti_CallbackDomain Domain, CUpti_CallbackId Cbid,
                       const void *Data) {
  if (CallDepth::inHandler())
    return; // graphcheck's own call.
  CallDepth::InHandler Guard;
  // Nothing may escape into the program: a checker failure costs observation,
  // never the run.
  try {
    if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
      SelfTimer Timed(SelfTimed::RuntimeCallbacks);
      count(RuntimeCallbacks);
      auto *D = static_cast<const CUpti_CallbackData *>(Data);
      if (D->callbackSite == CUPTI_API_ENTER)
        CallDepth::runtimeEnter(Cbid, Narrowings.load(std::memory_order_relaxed));
      else
        CallDepth::runtimeExit();
      onRuntimeApi(Cbid, D);
    } else if (Domain == CUPTI_CB_DOMAIN_DRIVER_API) {
      SelfTimer Timed(SelfTimed::DriverCallbacks);
      if (CallDepth::inRuntimeCall(Narrowings.load(std::memory_order_relaxed), watchedWhenNarrow))
        count(DriverInRuntime);
      else {
        count(DriverCallbacks);
        onDriverApi(Cbid, static_cast<const CUpti_CallbackData *>(Data));
      }
    } else if (Domain == CUPTI_CB_DOMAIN_RESOURCE) {
      SelfTimer Timed(SelfTimed::ResourceCallbacks);
      count(ResourceCallbacks);
      onResource(Cbid, static_cast<const CUpti_ResourceData *>(Data));
    }
  } catch (...) {
  }
}

void atExit() {
  LaunchStats S = launchStats();
  nlohmann::json J = {{"ev", "checker_stats"},
                      {"runtime_launches", S.Launches},
                      {"driver_launches", S.DriverLaunches},
                      {"stubs_resolved", S.Resolved},
                      {"stubs_unresolved", S.Unresolved},
                      {"scanned_by_cubin_name", S.ByCubinName},
                      {"kernel_handles", S.KernelHandles},
                      {"no_layout", S.NoLayout},
                      {"lookups_deferred", S.Deferred},
                      {"last_lookup_error", S.LastLookupError},
                      {"runtime", S.Runtime},
                      {"unresolved_in", S.UnresolvedModules},
                      {"callbacks",
                       {{"runtime", Delivered[RuntimeCallbacks].load()},
                        {"driver", Delivered[DriverCallbacks].load()},
                        {"driver_inside_runtime", Delivered[DriverInRuntime].load()},
                        {"resource", Delivered[ResourceCallbacks].load()}}},
                      {"allocator_block_frees", blockFreeCount()},
                      {"self_time_ns",
                       {{"runtime_callbacks", selfTimeNs(SelfTimed::RuntimeCallbacks).load()},
                        {"driver_callbacks", selfTimeNs(SelfTimed::DriverCallbacks).load()},
                        {"resource_callbacks", selfTimeNs(SelfTimed::ResourceCallbacks).load()},
                        {"block_events", selfTimeNs(SelfTimed::BlockEvents).load()},
                        {"trace_writes", selfTimeNs(SelfTimed::TraceWrites).load()}}}};
  if (const char *Show = std::getenv("GRAPHCHECK_SELF_TIME"); Show && *Show && *Show != '0') {
    auto ms = [](SelfTimed W) { return selfTimeNs(W).load() / 1e6; };
    auto n = [](CallbackCount C) { return static_cast<unsigned long long>(Delivered[C].load()); };
    std::fprintf(stderr,
                 "graphcheck self-time: runtime %.3f ms (%llu), driver %.3f ms (%llu + %llu inside "
                 "runtime calls), resource %.3f ms (%llu), block events %.3f ms (%llu); of all "
                 "these, writing the trace %.3f ms\n",
                 ms(SelfTimed::RuntimeCallbacks), n(RuntimeCallbacks),
                 ms(SelfTimed::DriverCallbacks), n(DriverCallbacks), n(DriverInRuntime),
                 ms(SelfTimed::ResourceCallbacks), n(ResourceCallbacks), ms(SelfTimed::BlockEvents),
                 static_cast<unsigned long long>(blockFreeCount()), ms(SelfTimed::TraceWrites));
  }
  trace().writeEvent(J);
  trace().close();
}

// What the runtime and eager-launch callbacks should be, kept even while a
// hand-over to a profiler is under way (Yielded set, CUPTI not yet let go):
// a hand-over that fails then puts back what a capture asked for meanwhile.
struct CallbackState {
  std::mutex M;
  bool WantWide = false;
  bool IsWide = true; // Until the first call narrows it.
  bool WantEager = false;
};
CallbackState &callbackState() {
  static auto *C = new CallbackState; // Callbacks may run during static destruction.
  return *C;
}

void applyWidthLocked(CallbackState &C) {
  if (Yielded || C.WantWide == C.IsWide)
    return;
  C.IsWide = C.WantWide;
  if (C.IsWide)
    return (void)cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  cuptiEnableDomain(0, Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  Narrowings.fetch_add(1, std::memory_order_relaxed);
  size_t N = 0;
  const CUpti_CallbackId *Ids = watchedRuntimeCalls(N);
  for (size_t I = 0; I < N; ++I)
    cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, Ids[I]);
}

void applyEagerLocked(CallbackState &C) {
  if (Yielded)
    return;
  size_t N = 0;
  const CUpti_CallbackId *Ids = eagerLaunchCalls(N);
  for (size_t I = 0; I < N; ++I)
    cuptiEnableCallback(C.WantEager ? 1 : 0, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API, Ids[I]);
}

// After a hand-over that failed: the callbacks as they were last asked for.
void reapplyCallbacks() {
  CallbackState &C = callbackState();
  std::lock_guard<std::mutex> L(C.M);
  applyWidthLocked(C);
  applyEagerLocked(C);
}

} // namespace

void widenCallbacks(bool Wide) {
  CallbackState &C = callbackState();
  std::lock_guard<std::mutex> L(C.M);
  C.WantWide = Wide;
  applyWidthLocked(C);
}

void watchEagerLaunches(bool On) {
  CallbackState &C = callbackState();
  std::lock_guard<std::mutex> L(C.M);
  C.WantEager = On;
  applyEagerLocked(C);
}

} // namespace graphsafe::inject

// The Python shim and the libtorch adapter report tensor-level facts here, so
// they land in the same ordered stream as the CUDA events.
extern "C" void graphcheck_event(const char *JsonLine) {
  if (JsonLine)
    graphsafe::inject::trace().write(JsonLine);
}

// Whether a tensor at Addr can matter to a graph (graph-owned memory, or a
// block a live graph points into): the shim reports grads only then, so a
// training loop does not pay for an event per parameter per step.
extern "C" int graphcheck_graph_memory(unsigned long long Addr) {
  return graphsafe::inject::memory().isGraphOwned(Addr) || graphsafe::inject::inWatchedBlock(Addr);
}

// The answers above hold until this moves: a grad that autograd hands back at
// last step's address needs no new question while it has not.
extern "C" unsigned long long graphcheck_graph_memory_epoch() {
  return graphsafe::inject::graphMemoryEpoch();
}

extern "C" void graphcheck_python_site(const char *Frame) {
  graphsafe::inject::setPythonFreeSite(Frame);
}

// torch.profiler (Kineto) needs CUPTI, which serves one subscriber: without
// it the profiler records no CUDA activity at all. The program's own profile
// wins; graphcheck stops watching and its report says where. Returns 1 when
// graphcheck no longer holds CUPTI, 0 when it could not let go and checks on.
extern "C" int graphcheck_yield_cupti(const char *Site) {
  using namespace graphsafe::inject;
  if (Yielded.exchange(true))
    return 1;
  std::string Where = Site && *Site ? Site : "?";
  // Unsubscribing can fail (CUPTI busy in another thread's callback): then
  // the profiler still cannot subscribe, and the user must hear that instead.
  if (CUptiResult R = cuptiUnsubscribe(Subscriber); R != CUPTI_SUCCESS) {
    const char *Msg = nullptr;
    cuptiGetResultString(R, &Msg);
    std::string Why = Msg ? Msg : "unknown error";
    Yielded = false;    // Still subscribed: keep checking,
    reapplyCallbacks(); // with whatever was asked for while the hand-over was tried.
    trace().writeEvent(
        {{"ev", "checker_warning"},
         {"stack", nlohmann::json::array({Where})},
         {"message", "torch.profiler starts here but graphcheck could not hand CUPTI over (" + Why +
                         "): graphcheck keeps checking and the profile has no CUDA "
                         "activity. Run graphcheck and the profiler separately."}});
    std::fprintf(stderr,
                 "graphcheck: torch.profiler starts at %s but CUPTI could not be handed over "
                 "(%s): graphcheck keeps checking and the profile will have no CUDA activity; "
                 "run graphcheck and the profiler separately\n",
                 Where.c_str(), Why.c_str());
    return 0;
  }
  trace().writeEvent({{"ev", "checker_yield"},
                      {"stack", nlohmann::json::array({Where})},
                      {"message", "torch.profiler starts here and needs CUPTI, which serves one "
                                  "tool at a time: graphcheck stopped watching CUDA here, so "
                                  "findings cover the run up to this line. Run without the "
                                  "profiler to check the whole run."}});
  std::fprintf(stderr,
               "graphcheck: torch.profiler starts at %s and needs CUPTI, which serves one tool "
               "at a time: graphcheck stops watching CUDA there and reports on the run up to "
               "that line (graphcheck run --profiler keep would keep checking and leave the "
               "profiler without CUDA activity)\n",
               Where.c_str());
  return 1;
}

extern "C" void graphcheck_set_launch_hook(void (*Hook)()) {
  graphsafe::inject::setLaunchHook(Hook);
}

extern "C" int InitializeInjection(void) {
  using namespace graphsafe::inject;
  const char *Dir = std::getenv("GRAPHCHECK_TRACE_DIR");
  if (!Dir || !trace().open(Dir)) {
    std::fprintf(
        stderr,
        "graphcheck: cannot write a trace (GRAPHCHECK_TRACE_DIR=%s); the program runs unobserved\n",
        Dir ? Dir : "unset");
    return 1;
  }
  std::atexit(atExit);
  CUptiResult R =
      cuptiSubscribe(&Subscriber, reinterpret_cast<CUpti_CallbackFunc>(callback), nullptr);
  if (R != CUPTI_SUCCESS) {
    const char *Msg = nullptr;
    cuptiGetResultString(R, &Msg);
    std::fprintf(stderr,
                 "graphcheck: CUPTI unavailable (%s; another profiler may hold it); the program "
                 "runs unobserved\n",
                 Msg ? Msg : "unknown error");
    trace().writeEvent({{"ev", "checker_error"},
                        {"message", std::string("CUPTI unavailable: ") + (Msg ? Msg : "")}});
    return 1;
  }
  widenCallbacks(false);
  cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                      CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED);
  cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
  size_t N = 0;
  const CUpti_CallbackId *Ids = watchedDriverCalls(N);
  for (size_t I = 0; I < N; ++I)
    cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API, Ids[I]);
  watchEagerLaunches(true);
  const char *Mode = std::getenv("GRAPHCHECK_MODE");
  trace().writeEvent({{"ev", "checker_start"}, {"mode", Mode ? Mode : "light"}});
  return 1;
}
