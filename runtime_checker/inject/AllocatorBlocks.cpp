#include "AllocatorBlocks.h"

#include "AllocatorSink.h"
#include "Hex.h"
#include "HostStack.h"
#include "MemoryMap.h"
#include "TraceWriter.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string>

namespace graphsafe::inject {

namespace {

struct BlockState {
  uint64_t Size;
  bool Announced; // The trace knows this block (a `block` event was written).
};

// Never destroyed: libtorch frees tensors from its own static destructors,
// after this library's would have run.
struct State {
  std::mutex M;
  std::map<uint64_t, BlockState> Live; // Block start -> state.
  std::multiset<uint64_t> Watched;     // Pointers of live execs, one per use.
  std::map<CUgraphExec, std::vector<uint64_t>> ByExec;
};
State &S = *new State;

thread_local std::string PythonFreeSite;
std::atomic<uint64_t> Events{0};

// The live block holding P (with S.M held), or S.Live.end().
std::map<uint64_t, BlockState>::iterator liveBlockAtLocked(uint64_t P) {
  auto It = S.Live.upper_bound(P);
  if (It == S.Live.begin())
    return S.Live.end();
  --It;
  return P < It->first + It->second.Size ? It : S.Live.end();
}

// Forgets the pointers an exec was watched for (with S.M held).
void unwatchLocked(std::vector<uint64_t> &Pointers) {
  for (uint64_t P : Pointers)
    S.Watched.erase(S.Watched.find(P));
  Pointers.clear();
}

bool watchedLocked(uint64_t Addr, uint64_t Size) {
  auto It = S.Watched.lower_bound(Addr);
  return It != S.Watched.end() && *It < Addr + Size;
}

} // namespace

void onBlockEvent(int Event, uint64_t Addr, uint64_t Size) {
  Events.fetch_add(1, std::memory_order_relaxed);
  bool Report = false;
  {
    std::lock_guard<std::mutex> L(S.M);
    if (Event == GraphcheckBlockAlloc) {
      S.Live[Addr] = {Size, false};
      return;
    }
    auto It = S.Live.find(Addr);
    if (It == S.Live.end())
      return;
    Report = It->second.Announced && watchedLocked(Addr, It->second.Size);
    S.Live.erase(It);
  }
  if (!Report)
    return;
  // The tracker runs under the allocator's lock, where waiting for the GIL
  // could deadlock: Python frames only when this thread already holds it.
  nlohmann::json Stack = pythonStackIfHeld();
  if (Stack.empty() && !PythonFreeSite.empty())
    Stack.push_back(PythonFreeSite);
  // PyTorch lets the GIL go before a storage dies (`static_x = batch.cuda()`,
  // `del x`): the line is read by a helper that takes the GIL for us.
  if (Stack.empty())
    Stack = pythonStackOfReleasedThread(std::chrono::milliseconds(100));
  if (Stack.empty())
    Stack = nativeStack();
  trace().writeEvent(nlohmann::json{{"ev", "block_free"},
                                    {"addr", rt::hexAddress(Addr)},
                                    {"size", Size},
                                    {"stack", Stack},
                                    {"gil", gilState()}});
}

uint64_t blockEventCount() { return Events.load(std::memory_order_relaxed); }

bool inWatchedBlock(uint64_t P) {
  std::lock_guard<std::mutex> L(S.M);
  auto It = liveBlockAtLocked(P);
  return It != S.Live.end() && watchedLocked(It->first, It->second.Size);
}

void setPythonFreeSite(const char *Frame) { PythonFreeSite = Frame ? Frame : ""; }

void watchExecBlocks(CUgraphExec Exec, const std::vector<uint64_t> &Pointers) {
  std::vector<std::pair<uint64_t, uint64_t>> New;
  {
    std::lock_guard<std::mutex> L(S.M);
    auto &Mine = S.ByExec[Exec];
    unwatchLocked(Mine);
    for (uint64_t P : Pointers) {
      auto It = liveBlockAtLocked(P);
      if (It == S.Live.end() || memory().isGraphOwned(P))
        continue;
      Mine.push_back(P);
      S.Watched.insert(P);
      if (!It->second.Announced) {
        It->second.Announced = true;
        New.emplace_back(It->first, It->second.Size);
      }
    }
  }
  for (auto [Addr, Size] : New)
    trace().writeEvent(
        nlohmann::json{{"ev", "block"}, {"addr", rt::hexAddress(Addr)}, {"size", Size}});
}

void unwatchExecBlocks(CUgraphExec Exec) {
  std::lock_guard<std::mutex> L(S.M);
  auto It = S.ByExec.find(Exec);
  if (It == S.ByExec.end())
    return;
  unwatchLocked(It->second);
  S.ByExec.erase(It);
}

} // namespace graphsafe::inject
