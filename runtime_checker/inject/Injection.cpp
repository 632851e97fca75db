// CUDA injection entry point (CUDA_INJECTION64_PATH): subscribes to CUPTI and
// turns capture, instantiate, launch, allocation and failed-in-capture API
// calls into graphcheck trace events. It never changes what the program
// computes: every callback only observes, and if CUPTI cannot be used the
// program runs unobserved after one message on stderr.
#include "GraphWalker.h"
#include "Hex.h"
#include "TraceWriter.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <execinfo.h>
#include <map>
#include <mutex>
#include <pthread.h>
#include <string>

namespace graphsafe::inject {

namespace {

CUpti_SubscriberHandle Subscriber;
std::mutex StateMutex;
std::map<uint64_t, uint64_t> Allocations;  // address -> size
std::map<uint64_t, uint64_t> CaptureGraph; // capturing stream -> graph id
std::map<uint64_t, uint64_t> GraphIds;     // CUgraph -> graph id
std::atomic<uint64_t> NextGraph{0};
std::map<uint64_t, pthread_t> CaptureThread;
std::map<uint64_t, uint64_t> GraphOwned; // allocations made under capture: address -> size
thread_local bool InCallback = false;    // capturing stream -> thread that began it

// Whether P lies in one of the [address, address + size) ranges of Map.
bool inRanges(const std::map<uint64_t, uint64_t> &Map, uint64_t P) {
  std::lock_guard<std::mutex> L(StateMutex);
  auto It = Map.upper_bound(P);
  if (It == Map.begin())
    return false;
  --It;
  return P < It->first + It->second;
}

bool isDevicePointer(uint64_t P) { return inRanges(Allocations, P); }

bool isGraphOwned(uint64_t P) { return inRanges(GraphOwned, P); }

nlohmann::json hostStack() {
  void *Frames[24];
  int N = backtrace(Frames, 24);
  char **Names = backtrace_symbols(Frames, N);
  nlohmann::json Out = nlohmann::json::array();
  for (int I = 3; Names && I < N; ++I) // Skip the callback's own frames.
    Out.push_back(Names[I]);
  std::free(Names);
  return Out;
}

// The Python lines that made a failing call, read through the CPython API when
// the process embeds Python. Only used on the failure path (a capture error),
// since it takes the GIL.
nlohmann::json pythonStack() {
  static auto Sym = [](const char *N) { return reinterpret_cast<void *>(dlsym(RTLD_DEFAULT, N)); };
  static auto IsInit = reinterpret_cast<int (*)()>(Sym("Py_IsInitialized"));
  static auto Ensure = reinterpret_cast<int (*)()>(Sym("PyGILState_Ensure"));
  static auto Release = reinterpret_cast<void (*)(int)>(Sym("PyGILState_Release"));
  static auto GetFrame = reinterpret_cast<void *(*)()>(Sym("PyEval_GetFrame"));
  static auto Line = reinterpret_cast<int (*)(void *)>(Sym("PyFrame_GetLineNumber"));
  static auto Code = reinterpret_cast<void *(*)(void *)>(Sym("PyFrame_GetCode"));
  static auto Back = reinterpret_cast<void *(*)(void *)>(Sym("PyFrame_GetBack"));
  static auto Attr =
      reinterpret_cast<void *(*)(void *, const char *)>(Sym("PyObject_GetAttrString"));
  static auto Utf8 = reinterpret_cast<const char *(*)(void *)>(Sym("PyUnicode_AsUTF8"));
  static auto DecRef = reinterpret_cast<void (*)(void *)>(Sym("Py_DecRef"));
  nlohmann::json Out = nlohmann::json::array();
  if (!IsInit || !Ensure || !Release || !GetFrame || !Line || !Code || !Back || !Attr || !Utf8 ||
      !DecRef || !IsInit())
    return Out;
  int State = Ensure();
  void *Frame = GetFrame(); // Borrowed.
  bool Owned = false;
  for (int Depth = 0; Frame && Depth < 16; ++Depth) {
    void *C = Code(Frame);
    void *File = C ? Attr(C, "co_filename") : nullptr;
    void *Name = C ? Attr(C, "co_name") : nullptr;
    const char *F = File ? Utf8(File) : nullptr;
    const char *N = Name ? Utf8(Name) : nullptr;
    // Frames inside torch itself say little about the user's mistake.
    if (F && !std::strstr(F, "/torch/"))
      Out.push_back(std::string(F) + ":" + std::to_string(Line(Frame)) + " " + (N ? N : "?"));
    if (File)
      DecRef(File);
    if (Name)
      DecRef(Name);
    if (C)
      DecRef(C);
    void *Next = Back(Frame);
    if (Owned)
      DecRef(Frame);
    Frame = Next;
    Owned = true;
  }
  if (Owned && Frame)
    DecRef(Frame);
  Release(State);
  return Out;
}

nlohmann::json failingCallStack() {
  nlohmann::json Py = pythonStack();
  return Py.empty() ? hostStack() : Py;
}

void emit(const nlohmann::json &J) { trace().write(J.dump()); }

void onAlloc(uint64_t Addr, uint64_t Size) {
  std::string Graph;
  {
    std::lock_guard<std::mutex> L(StateMutex);
    Allocations[Addr] = Size;
    if (!CaptureGraph.empty()) {
      Graph = "g" + std::to_string(CaptureGraph.begin()->second);
      GraphOwned[Addr] = Size;
    }
  }
  nlohmann::json J = {{"ev", "alloc"}, {"addr", rt::hexAddress(Addr)}, {"size", Size}};
  if (!Graph.empty())
    J["graph"] = Graph;
  emit(J);
}

void onFree(uint64_t Addr) {
  {
    std::lock_guard<std::mutex> L(StateMutex);
    Allocations.erase(Addr);
    GraphOwned.erase(Addr);
  }
  emit({{"ev", "free"}, {"addr", rt::hexAddress(Addr)}});
}

void onCaptureBegin(uint64_t Stream) {
  uint64_t Id = NextGraph++;
  {
    std::lock_guard<std::mutex> L(StateMutex);
    CaptureGraph[Stream] = Id;
    CaptureThread[Stream] = pthread_self();
  }
  emit({{"ev", "capture_begin"},
        {"graph", "g" + std::to_string(Id)},
        {"stream", rt::hexAddress(Stream)}});
}

void onCaptureEnd(uint64_t Stream, uint64_t Graph) {
  uint64_t Id = 0;
  {
    std::lock_guard<std::mutex> L(StateMutex);
    auto It = CaptureGraph.find(Stream);
    if (It == CaptureGraph.end())
      return;
    Id = It->second;
    CaptureGraph.erase(It);
    CaptureThread.erase(Stream);
    if (Graph)
      GraphIds[Graph] = Id;
  }
  emit({{"ev", "capture_end"}, {"graph", "g" + std::to_string(Id)}});
}

const char *classifyCaptureError(const char *Api, int Err) {
  if (Err == cudaErrorStreamCaptureUnjoined)
    return "unjoined";
  if (Err == cudaErrorStreamCaptureImplicit)
    return "legacy-stream";
  if (std::strstr(Api, "Malloc") || std::strstr(Api, "Free") || std::strstr(Api, "HostAlloc"))
    return "alloc";
  return "sync";
}

bool isCaptureError(int Err) {
  return Err == cudaErrorStreamCaptureUnsupported || Err == cudaErrorStreamCaptureInvalidated ||
         Err == cudaErrorStreamCaptureImplicit || Err == cudaErrorStreamCaptureUnjoined ||
         Err == cudaErrorStreamCaptureIsolation || Err == cudaErrorStreamCaptureWrongThread;
}

// Synchronizing calls are illegal on the thread that is capturing, whatever
// they return (some only invalidate the capture, and the error surfaces later
// at cudaStreamEndCapture, far from the line that caused it).
bool isSyncCall(CUpti_CallbackId Cbid) {
  switch (Cbid) {
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020:
    return true;
  default:
    return false;
  }
}

// The graph this thread is capturing, if any.
std::string graphCapturedByThisThread() {
  std::lock_guard<std::mutex> L(StateMutex);
  for (const auto &[Stream, Thread] : CaptureThread)
    if (pthread_equal(Thread, pthread_self()))
      return "g" + std::to_string(CaptureGraph[Stream]);
  return "";
}

// These return the sticky error of an earlier call; the earlier call is the culprit.
bool reportsEarlierErrors(CUpti_CallbackId Cbid) {
  return Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020 ||
         Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020 ||
         Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000 ||
         Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v10010 ||
         Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_v11030 ||
         Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000 ||
         Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphDestroy_v10000;
}

std::string graphCapturedByThisThread();

// Eager kernels matter only where they touch graph-owned memory (reading an
// output a later replay overwrote, or writing memory the next replay wipes),
// so only those are recorded: the trace stays small on long runs.
// Watched at the driver level (cuLaunchKernel*), which the runtime calls for
// every launch and which hands over the CUfunction directly: resolving a
// runtime host stub would mean a runtime call from inside the callback, and a
// failing one leaves a sticky error the program would then see.
void onEagerLaunch(CUfunction F, void **Params) {
  {
    std::lock_guard<std::mutex> L(StateMutex);
    if (GraphOwned.empty())
      return;
  }
  if (!F || !Params || !graphCapturedByThisThread().empty())
    return; // Being captured, not run.
  std::set<uint64_t> Ptrs;
  scanKernelParams(F, Params, Ptrs, isGraphOwned);
  if (Ptrs.empty())
    return;
  const char *Name = nullptr;
  if (cuFuncGetName(&Name, F) != CUDA_SUCCESS)
    Name = nullptr;
  nlohmann::json J = {
      {"ev", "eager_kernel"}, {"kernel", Name ? Name : "?"}, {"ptrs", nlohmann::json::array()}};
  for (uint64_t V : Ptrs)
    J["ptrs"].push_back(rt::hexAddress(V));
  emit(J);
}

void onDriver(CUpti_CallbackId Cbid, const CUpti_CallbackData *D) {
  if (D->callbackSite != CUPTI_API_ENTER)
    return;
  if (Cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ||
      Cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz) {
    auto *P = static_cast<const cuLaunchKernel_params *>(D->functionParams);
    onEagerLaunch(P->f, P->kernelParams);
  } else if (Cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
             Cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz) {
    auto *P = static_cast<const cuLaunchKernelEx_params *>(D->functionParams);
    onEagerLaunch(P->f, P->kernelParams);
  }
}

void onRuntime(CUpti_CallbackId Cbid, const CUpti_CallbackData *D) {
  const bool Enter = D->callbackSite == CUPTI_API_ENTER;
  // Calls the checker itself makes inside a callback are not the program's.
  if (InCallback)
    return;
  struct Reentry {
    Reentry() { InCallback = true; }
    ~Reentry() { InCallback = false; }
  } Guard;
  switch (Cbid) {
  case CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020:
    if (!Enter) {
      auto *P = static_cast<const cudaMalloc_v3020_params *>(D->functionParams);
      if (*static_cast<cudaError_t *>(D->functionReturnValue) == cudaSuccess)
        onAlloc(reinterpret_cast<uint64_t>(*P->devPtr), P->size);
    }
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020:
    if (Enter)
      onFree(reinterpret_cast<uint64_t>(
          static_cast<const cudaFree_v3020_params *>(D->functionParams)->devPtr));
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000:
    if (!Enter && *static_cast<cudaError_t *>(D->functionReturnValue) == cudaSuccess)
      onCaptureBegin(reinterpret_cast<uint64_t>(
          static_cast<const cudaStreamBeginCapture_v10000_params *>(D->functionParams)->stream));
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000:
    if (!Enter) {
      auto *P = static_cast<const cudaStreamEndCapture_v10000_params *>(D->functionParams);
      int Err = *static_cast<cudaError_t *>(D->functionReturnValue);
      if (Err == cudaErrorStreamCaptureUnjoined)
        emit({{"ev", "api_in_capture"},
              {"api", D->functionName},
              {"kind", "unjoined"},
              {"stack", failingCallStack()}});
      onCaptureEnd(reinterpret_cast<uint64_t>(P->stream),
                   Err == cudaSuccess && P->pGraph ? reinterpret_cast<uint64_t>(*P->pGraph) : 0);
    }
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000:
    if (Enter)
      emit({{"ev", "launch"},
            {"exec", rt::hexAddress(reinterpret_cast<uint64_t>(
                         static_cast<const cudaGraphLaunch_v10000_params *>(D->functionParams)
                             ->graphExec))}});
    break;
  default:
    if (Enter && isSyncCall(Cbid)) {
      std::string Graph = graphCapturedByThisThread();
      if (!Graph.empty())
        emit({{"ev", "api_in_capture"},
              {"api", D->functionName},
              {"kind", "sync"},
              {"graph", Graph},
              {"stack", failingCallStack()}});
      break;
    }
    if (!Enter && D->functionReturnValue && !reportsEarlierErrors(Cbid)) {
      int Err = *static_cast<cudaError_t *>(D->functionReturnValue);
      if (isCaptureError(Err))
        emit({{"ev", "api_in_capture"},
              {"api", D->functionName},
              {"kind", classifyCaptureError(D->functionName, Err)},
              {"error", Err},
              {"stack", failingCallStack()}});
    }
  }
}

void onGraphExecCreated(const CUpti_ResourceData *R) {
  auto *G = static_cast<CUpti_GraphData *>(R->resourceDescriptor);
  if (!G || !G->graph)
    return;
  uint64_t Id;
  {
    std::lock_guard<std::mutex> L(StateMutex);
    auto It = GraphIds.find(reinterpret_cast<uint64_t>(G->graph));
    if (It == GraphIds.end())
      It = GraphIds.emplace(reinterpret_cast<uint64_t>(G->graph), NextGraph++).first;
    Id = It->second;
  }
  trace().write(describeGraphExec(G->graph, Id, G->graphExec, isDevicePointer));
}

void CUPTIAPI callback(void *, CUpti_CallbackDomain Domain, CUpti_CallbackId Cbid,
                       const void *Data) {
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API)
    onRuntime(Cbid, static_cast<const CUpti_CallbackData *>(Data));
  else if (Domain == CUPTI_CB_DOMAIN_DRIVER_API)
    onDriver(Cbid, static_cast<const CUpti_CallbackData *>(Data));
  else if (Domain == CUPTI_CB_DOMAIN_RESOURCE && Cbid == CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED)
    onGraphExecCreated(static_cast<const CUpti_ResourceData *>(Data));
}

void atExit() { trace().close(); }

} // namespace

} // namespace graphsafe::inject

// The Python shim and the libtorch adapter report tensor-level facts here, so
// they land in the same ordered stream as the CUDA events.
extern "C" void graphcheck_event(const char *JsonLine) {
  if (JsonLine)
    graphsafe::inject::trace().write(JsonLine);
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
    trace().write(nlohmann::json{{"ev", "checker_error"},
                                 {"message", std::string("CUPTI unavailable: ") + (Msg ? Msg : "")}}
                      .dump());
    return 1;
  }
  cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                      CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED);
  for (CUpti_CallbackId Id :
       {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz})
    cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API, Id);
  trace().write("{\"ev\":\"checker_start\"}");
  return 1;
}
