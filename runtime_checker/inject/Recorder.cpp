#include "Recorder.h"

#include "EagerWatch.h"

#include "AllocatorBlocks.h"
#include "Callbacks.h"
#include "CaptureTracker.h"
#include "GraphWalker.h"
#include "Hex.h"
#include "HostStack.h"
#include "MemoryMap.h"
#include "TraceWriter.h"
#include "TrackerLoader.h"
#include "WriteSnapshots.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <set>

namespace graphsafe::inject {

namespace {

using nlohmann::json;

void emit(const json &J) { trace().writeEvent(J); }

std::string hex(uint64_t V) { return rt::hexAddress(V); }
std::string hex(const void *P) { return rt::hexAddress(reinterpret_cast<uint64_t>(P)); }

json extentsJson(const std::vector<Extent> &Ranges) {
  json Out = json::array();
  for (const Extent &R : Ranges)
    Out.push_back({hex(R.Begin), R.Size});
  return Out;
}

bool isDevice(uint64_t P) { return memory().isDevice(P); }

// What verify mode needs of each exec: its nodes' pointers, and how many of
// its replays were snapshotted already.
struct ExecRecord {
  GraphLayout Layout;
  unsigned Verified = 0;
};
std::mutex ExecMutex;
std::map<CUgraphExec, ExecRecord> Execs;
// Stream order matters only once two execs exist and a graph was replayed
// off the legacy default stream (which the engine takes as ordered with
// everything): until then event records, waits and synchronizations cost a
// callback and nothing more.
std::atomic<size_t> LiveExecs{0};
std::atomic<bool> SideStreamReplays{false};
bool orderMatters() {
  return SideStreamReplays.load(std::memory_order_relaxed) &&
         LiveExecs.load(std::memory_order_relaxed) >= 2;
}

// The legacy default stream: handle 0 outside a _ptsz call, or cudaStreamLegacy.
bool isLegacy(uint64_t Stream, bool PerThread) {
  return (Stream == 0 && !PerThread) || Stream == 0x1;
}

std::string streamName(uint64_t Stream, bool PerThread) {
  // cudaStreamPerThread's handle is 0x2; a _ptsz call's 0 means that stream.
  return hex(Stream == 0 && PerThread ? 0x2 : Stream);
}

// Launch sites taken per (exec, stream): a stack walk costs far more than a
// replay's launch, and a race between two graphs shows from their first
// replays on those streams.
constexpr unsigned SitesPerExecAndStream = 3;
std::mutex SitesMutex;
std::map<std::pair<CUgraphExec, uint64_t>, unsigned> SitesTaken;

json launchEvent(CUgraphExec Exec, uint64_t Stream, bool PerThread) {
  json J = {{"ev", "launch"}, {"exec", hex(Exec)}, {"stream", streamName(Stream, PerThread)}};
  if (isLegacy(Stream, PerThread) || LiveExecs.load(std::memory_order_relaxed) < 2)
    return J;
  SideStreamReplays.store(true, std::memory_order_relaxed);
  bool Take;
  {
    std::lock_guard<std::mutex> L(SitesMutex);
    Take = SitesTaken[{Exec, Stream}]++ < SitesPerExecAndStream;
  }
  // Where the replay was launched, for findings about its order with others.
  if (Take)
    J["site"] = callerStack();
  return J;
}
// Replays snapshotted per exec: enough to see writes whose values repeat
// in one replay, few enough to leave the run's pace alone afterwards.
constexpr unsigned VerifiedReplays = 3;

std::atomic<LaunchHook> Hook{nullptr};

thread_local std::optional<WriteSnapshot> PendingLaunch, PendingEager;
// The launch event a snapshotted launch reports at its exit.
thread_local json PendingLaunchEvent;
thread_local json PendingEagerEvent;

// Verify mode's knowledge of eager kernels: what a kernel wrote when
// launched on these graph-owned pointers.
using EagerKey = std::pair<const void *, std::vector<uint64_t>>;
struct Learned {
  unsigned Seen = 0;
  json Writes = json::array();
};
std::map<EagerKey, Learned> EagerLearned;
unsigned LightModeLearnable = 64;
std::set<EagerKey> EagerTouched; // Light mode: every pair seen, learned or not.
thread_local EagerKey PendingEagerKey;

json nodeJson(const NodeInfo &N) {
  json J = {{"id", std::to_string(N.Index)}, {"kernel", N.Kernel}, {"ptrs", json::array()}};
  for (uint64_t P : N.Pointers)
    J["ptrs"].push_back(hex(P));
  return J;
}

std::vector<uint64_t> pointersOf(const GraphLayout &Layout) {
  std::vector<uint64_t> Out;
  for (const NodeInfo &N : Layout.Nodes)
    Out.insert(Out.end(), N.Pointers.begin(), N.Pointers.end());
  return Out;
}

void describeExec(CUgraphExec Exec, const std::string &Graph, GraphLayout Layout) {
  // Graph memory nodes own their memory for the graph's lifetime.
  for (const Extent &A : Layout.MemAllocs) {
    memory().add(A.Begin, A.Size, true);
    emit({{"ev", "alloc"}, {"addr", hex(A.Begin)}, {"size", A.Size}, {"graph", Graph}});
  }
  json J = {{"ev", "graph_exec"}, {"graph", Graph}, {"exec", hex(Exec)}, {"nodes", json::array()}};
  for (const NodeInfo &N : Layout.Nodes)
    J["nodes"].push_back(nodeJson(N));
  // The blocks the nodes point into must reach the trace before the exec.
  watchExecBlocks(Exec, pointersOf(Layout));
  emit(J);
  captures().setExecGraph(Exec, Graph);
  std::lock_guard<std::mutex> L(ExecMutex);
  Execs[Exec] = {std::move(Layout), 0};
  LiveExecs = Execs.size();
}

} // namespace

void setLaunchHook(LaunchHook H) { Hook = H; }

void recordAlloc(uint64_t Addr, uint64_t Size) {
  // An allocation on another thread while some stream captures still belongs
  // to a capture's private pool in PyTorch; the engine attributes it.
  bool Owned = captures().anyCapture();
  std::string Graph = Owned ? captures().graphOfThisThread() : "";
  memory().add(Addr, Size, Owned);
  json J = {{"ev", "alloc"}, {"addr", hex(Addr)}, {"size", Size}};
  if (!Graph.empty())
    J["graph"] = Graph;
  emit(J);
}

void recordFree(uint64_t Addr) {
  if (memory().remove(Addr))
    emit({{"ev", "free"}, {"addr", hex(Addr)}});
}

void recordStreamOrderedFree(uint64_t Addr) {
  if (captures().graphOfThisThread().empty())
    recordFree(Addr);
}

void recordUnmap(uint64_t Addr, uint64_t Size) {
  for (uint64_t A : memory().removeRange(Addr, Size))
    emit({{"ev", "free"}, {"addr", hex(A)}});
}

void recordCaptureBegin(uint64_t Stream) {
  attachAllocatorTrackerOnce();
  widenCallbacks(true);
  watchEagerAgain();
  std::string Id = captures().begin(Stream);
  // Where the capture began names the graph in every finding about it.
  emit({{"ev", "capture_begin"},
        {"graph", Id},
        {"stream", hex(Stream)},
        {"stack", nativeStackUnlessPython()}});
}

void recordCaptureEnd(uint64_t Stream, CUgraph Result, const char *Api, bool Unjoined) {
  if (Unjoined)
    emit({{"ev", "api_in_capture"}, {"api", Api}, {"kind", "unjoined"}, {"stack", callerStack()}});
  // Grads autograd installed during the capture (whole-network capture) must
  // reach the trace while it still counts as capturing.
  if (LaunchHook H = Hook.load())
    H();
  std::string Id = captures().end(Stream, Result);
  if (!Id.empty())
    emit({{"ev", "capture_end"}, {"graph", Id}});
  if (!captures().anyCapture())
    widenCallbacks(false);
}

void recordExecCreated(CUgraph Graph, CUgraphExec Exec) {
  watchEagerAgain();
  describeExec(Exec, captures().idOf(Graph), walkGraph(Graph, isDevice));
}

void recordExecUpdate(CUgraphExec Exec, CUgraph Graph) {
  watchEagerAgain();
  describeExec(Exec, captures().graphOfExec(Exec), walkGraph(Graph, isDevice));
}

void recordKernelNodeUpdate(CUgraphExec Exec, CUgraphNode Node, const CUDA_KERNEL_NODE_PARAMS &P) {
  int Index = captures().nodeIndex(Node);
  if (Index < 0)
    return;
  NodeInfo N = describeKernel(static_cast<unsigned>(Index), P, isDevice);
  json J = {{"ev", "node_update"}, {"exec", hex(Exec)}, {"nodes", json::array({nodeJson(N)})}};
  emit(J);
  std::vector<uint64_t> Pointers;
  {
    std::lock_guard<std::mutex> L(ExecMutex);
    auto It = Execs.find(Exec);
    if (It == Execs.end())
      return;
    for (NodeInfo &Old : It->second.Layout.Nodes)
      if (Old.Index == N.Index)
        Old = N;
    It->second.Verified = 0; // New parameters, new write set.
    Pointers = pointersOf(It->second.Layout);
  }
  // Outside ExecMutex: watching reads the allocator's snapshot, which waits
  // for the allocator's lock, and no lock of ours is held while it waits.
  watchExecBlocks(Exec, Pointers);
}

void recordExecDestroy(CUgraphExec Exec) {
  {
    std::lock_guard<std::mutex> L(ExecMutex);
    if (!Execs.erase(Exec))
      return;
    LiveExecs = Execs.size();
  }
  unwatchExecBlocks(Exec);
  emit({{"ev", "exec_destroy"}, {"exec", hex(Exec)}});
}

void recordGraphLaunchEnter(CUgraphExec Exec, uint64_t Stream, bool PerThread) {
  if (LaunchHook H = Hook.load())
    H();
  if (!captures().anyCapture())
    noteReplay();
  const json Launch = launchEvent(Exec, Stream, PerThread);
  PendingLaunch.reset();
  // A launch being captured into another graph does not run now.
  if (!verifyMode() || captures().anyCapture())
    return emit(Launch);
  std::vector<uint64_t> Ptrs;
  {
    std::lock_guard<std::mutex> L(ExecMutex);
    auto It = Execs.find(Exec);
    if (It == Execs.end() || It->second.Verified >= VerifiedReplays)
      return emit(Launch);
    ++It->second.Verified;
    for (const NodeInfo &N : It->second.Layout.Nodes)
      Ptrs.insert(Ptrs.end(), N.Pointers.begin(), N.Pointers.end());
  }
  // A snapshotted launch is reported after its writes (at exit), so the
  // engine judges even the first replay by what it really wrote.
  PendingLaunch.emplace();
  if (!PendingLaunch->take(Ptrs)) {
    PendingLaunch.reset();
    emit(Launch);
    return;
  }
  PendingLaunchEvent = Launch;
}

void recordGraphLaunchExit(CUgraphExec Exec) {
  if (!PendingLaunch)
    return;
  std::vector<Extent> Changed = PendingLaunch->changed();
  PendingLaunch.reset();
  struct LaunchAfterWrites {
    json Event;
    ~LaunchAfterWrites() { emit(Event); }
  } Launch{std::move(PendingLaunchEvent)};
  // Each changed range is the work of the node(s) whose pointer starts
  // closest below it in the same allocation.
  std::map<unsigned, std::vector<Extent>> ByNode;
  {
    std::lock_guard<std::mutex> L(ExecMutex);
    auto It = Execs.find(Exec);
    if (It == Execs.end())
      return;
    std::multimap<uint64_t, unsigned> NodesAt; // pointer -> nodes passing it
    for (const NodeInfo &N : It->second.Layout.Nodes)
      for (uint64_t P : N.Pointers)
        NodesAt.emplace(P, N.Index);
    for (const Extent &W : Changed) {
      auto Below = NodesAt.upper_bound(W.Begin);
      if (Below == NodesAt.begin())
        continue;
      uint64_t Best = std::prev(Below)->first;
      if (auto Alloc = memory().extentOf(W.Begin); Alloc && Best < Alloc->Begin)
        continue;
      auto [First, Last] = NodesAt.equal_range(Best);
      for (auto N = First; N != Last; ++N)
        ByNode[N->second].push_back(W);
    }
  }
  json J = {{"ev", "exec_writes"}, {"exec", hex(Exec)}, {"nodes", json::array()}};
  for (const auto &[Index, Writes] : ByNode)
    J["nodes"].push_back({{"id", std::to_string(Index)}, {"writes", extentsJson(Writes)}});
  emit(J);
}

// Eager kernels matter only where they touch graph-owned memory (reading an
// output a later replay overwrote, or writing memory the next replay wipes),
// so only those are recorded: the trace stays small on long runs.
bool eagerLaunchMatters() { return memory().anyGraphOwned() && !captures().anyCapture(); }

void recordEagerLaunchEnter(CUfunction F, void **Params) {
  if (!F)
    return PendingEager.reset();
  recordEagerLaunchEnter(nullptr, paramSizesOf(F), F, Params);
}

void recordEagerLaunchEnter(const char *Name, const std::vector<size_t> &Sizes, const void *Key,
                            void **Params) {
  PendingEager.reset();
  if (!Params)
    return;
  std::set<uint64_t> Ptrs;
  scanKernelParams(Sizes, Params, Ptrs, [](uint64_t P) { return memory().isGraphOwned(P); });
  if (Ptrs.empty())
    return;
  // Named only when it matters: most eager kernels never touch graph memory.
  if (!Name &&
      cuFuncGetName(&Name, static_cast<CUfunction>(const_cast<void *>(Key))) != CUDA_SUCCESS)
    Name = nullptr;
  json J = {{"ev", "eager_kernel"}, {"kernel", Name ? Name : "?"}, {"ptrs", json::array()}};
  for (uint64_t V : Ptrs)
    J["ptrs"].push_back(hex(V));
  // A kernel launched again on the same pointers writes the same places:
  // after a few snapshots its learned writes stand for it, so a training
  // loop is not synchronized at every step.
  EagerKey Learn{Key, {Ptrs.begin(), Ptrs.end()}};
  {
    std::lock_guard<std::mutex> L(ExecMutex);
    if (!verifyMode())
      noteEagerTouch(EagerTouched.insert(Learn).second);
    auto It = EagerLearned.find(Learn);
    if (It != EagerLearned.end() && It->second.Seen >= VerifiedReplays) {
      J["writes"] = It->second.Writes;
      return emit(J);
    }
    // Light mode learns too (an eager write into graph memory is rare in a
    // correct program, and users should not need a second run to hear of a
    // lost one), but only for the first few kernel and pointer sets.
    if (It == EagerLearned.end() && !verifyMode()) {
      if (LightModeLearnable == 0)
        return emit(J);
      --LightModeLearnable;
    }
  }
  PendingEagerKey = Learn;
  PendingEagerEvent = std::move(J);
  PendingEager.emplace();
  if (!PendingEager->take({Ptrs.begin(), Ptrs.end()})) {
    PendingEager.reset();
    emit(PendingEagerEvent);
  }
}

void recordEagerLaunchExit() {
  if (!PendingEager)
    return;
  json J = std::move(PendingEagerEvent);
  J["writes"] = extentsJson(PendingEager->changed());
  PendingEager.reset();
  {
    std::lock_guard<std::mutex> L(ExecMutex);
    Learned &Seen = EagerLearned[PendingEagerKey];
    ++Seen.Seen;
    for (const auto &W : J["writes"])
      if (std::find(Seen.Writes.begin(), Seen.Writes.end(), W) == Seen.Writes.end())
        Seen.Writes.push_back(W);
  }
  emit(J);
}

bool recordSyncIfCapturing(const char *Api) {
  std::string Graph = captures().graphOfThisThread();
  if (Graph.empty())
    return false;
  emit({{"ev", "api_in_capture"},
        {"api", Api},
        {"kind", "sync"},
        {"graph", Graph},
        {"stack", callerStack()}});
  return true;
}

void recordCaptureError(const char *Api, int Error) {
  const char *Kind = "sync";
  if (Error == CUDA_ERROR_STREAM_CAPTURE_UNJOINED)
    Kind = "unjoined";
  else if (Error == CUDA_ERROR_STREAM_CAPTURE_IMPLICIT)
    Kind = "legacy-stream";
  else if (std::strstr(Api, "Malloc") || std::strstr(Api, "Free") || std::strstr(Api, "Alloc"))
    Kind = "alloc";
  emit({{"ev", "api_in_capture"},
        {"api", Api},
        {"kind", Kind},
        {"error", Error},
        {"stack", callerStack()}});
}

void recordEventRecord(uint64_t Event, uint64_t Stream, bool PerThread) {
  if (orderMatters() && !captures().anyCapture())
    emit(
        {{"ev", "event_record"}, {"event", hex(Event)}, {"stream", streamName(Stream, PerThread)}});
}

void recordStreamWait(uint64_t Stream, uint64_t Event, bool PerThread) {
  if (orderMatters() && !captures().anyCapture())
    emit({{"ev", "stream_wait"}, {"stream", streamName(Stream, PerThread)}, {"event", hex(Event)}});
}

void recordHostSyncStream(uint64_t Stream, bool PerThread) {
  if (orderMatters())
    emit({{"ev", "host_sync"}, {"stream", streamName(Stream, PerThread)}});
}

void recordHostSyncEvent(uint64_t Event) {
  if (orderMatters())
    emit({{"ev", "host_sync"}, {"event", hex(Event)}});
}

void recordHostSyncDevice() {
  if (orderMatters())
    emit({{"ev", "host_sync"}});
}

} // namespace graphsafe::inject
