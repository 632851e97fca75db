#include "AllocatorBlocks.h"

#include "AllocatorSink.h"
#include "Hex.h"
#include "HostStack.h"
#include "MemoryMap.h"
#include "TraceWriter.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace graphsafe::inject {

namespace {

struct WatchedBlock {
  uint64_t Size;
  uint64_t Id;   // Tells this block from a later one at the same address.
  unsigned Uses; // Pointers of live execs into it.
};

struct Use {
  uint64_t Start, Id;
};

// Never destroyed: libtorch frees tensors from its own static destructors,
// after this library's would have run.
struct State {
  std::mutex M;
  std::map<uint64_t, WatchedBlock> Watched; // Block start -> block.
  std::map<CUgraphExec, std::vector<Use>> ByExec;
  uint64_t NextId = 1;
};
State &S = *new State;

std::atomic<GraphcheckTrackerLiveBlocks> Source{nullptr};
thread_local std::string PythonFreeSite;
std::atomic<uint64_t> Frees{0};

using Block = std::pair<uint64_t, uint64_t>; // Start, size.

// The blocks allocated now that hold one of Pointers (sorted), by address.
// Only those are kept: a large heap has tens of thousands of blocks, and
// sorting them all cost more than PyTorch's listing of them. Taken without
// S.M held: the listing takes the allocator's lock, under which frees take S.M.
std::vector<Block> liveBlocksHolding(const std::vector<uint64_t> &Pointers) {
  struct Query {
    const std::vector<uint64_t> &Pointers;
    std::vector<Block> Out;
  } Q{Pointers, {}};
  GraphcheckTrackerLiveBlocks Read = Source.load();
  if (!Read || Pointers.empty())
    return {};
  char Error[256] = "";
  if (Read(
          [](void *C, uint64_t A, uint64_t N) {
            auto &Q = *static_cast<Query *>(C);
            auto It = std::lower_bound(Q.Pointers.begin(), Q.Pointers.end(), A);
            if (It != Q.Pointers.end() && *It - A < N)
              Q.Out.push_back({A, N});
          },
          &Q, Error, sizeof Error) != 0) {
    static std::once_flag Once;
    std::call_once(Once, [&] {
      trace().writeEvent(nlohmann::json{
          {"ev", "checker_note"},
          {"message", std::string("could not read PyTorch's allocated blocks (") + Error +
                          "); frees of tensors graphs point into may go unseen"}});
    });
    return {};
  }
  std::sort(Q.Out.begin(), Q.Out.end());
  return std::move(Q.Out);
}

// The block of Blocks holding P, or null.
const Block *blockAt(const std::vector<Block> &Blocks, uint64_t P) {
  auto It = std::upper_bound(Blocks.begin(), Blocks.end(), Block{P, UINT64_MAX});
  if (It == Blocks.begin())
    return nullptr;
  --It;
  return P < It->first + It->second ? &*It : nullptr;
}

// Forgets an exec's uses (with S.M held). A block freed meanwhile is gone
// already, and one at its address since is another block.
void unwatchLocked(std::vector<Use> &Uses) {
  for (const Use &U : Uses) {
    auto It = S.Watched.find(U.Start);
    if (It != S.Watched.end() && It->second.Id == U.Id && --It->second.Uses == 0)
      S.Watched.erase(It);
  }
  Uses.clear();
}

} // namespace

void setLiveBlockSource(GraphcheckTrackerLiveBlocks Read) { Source = Read; }

void onBlockEvent(int Event, uint64_t Addr, uint64_t Size) {
  Frees.fetch_add(1, std::memory_order_relaxed);
  if (Event != GraphcheckBlockFree)
    return;
  {
    std::lock_guard<std::mutex> L(S.M);
    auto It = S.Watched.find(Addr);
    if (It == S.Watched.end())
      return;
    Size = It->second.Size;
    S.Watched.erase(It);
  }
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

uint64_t blockFreeCount() { return Frees.load(std::memory_order_relaxed); }

bool inWatchedBlock(uint64_t P) {
  std::lock_guard<std::mutex> L(S.M);
  auto It = S.Watched.upper_bound(P);
  if (It == S.Watched.begin())
    return false;
  --It;
  return P < It->first + It->second.Size;
}

void setPythonFreeSite(const char *Frame) { PythonFreeSite = Frame ? Frame : ""; }

void watchExecBlocks(CUgraphExec Exec, const std::vector<uint64_t> &Pointers) {
  // Only pointers outside graph memory can land in a block a free matters
  // for. Sorted out here, before S.M, so the memory map's lock is never
  // taken under it.
  std::vector<uint64_t> Outside;
  for (uint64_t P : Pointers)
    if (!memory().isGraphOwned(P))
      Outside.push_back(P);
  std::sort(Outside.begin(), Outside.end());
  Outside.erase(std::unique(Outside.begin(), Outside.end()), Outside.end());
  // Asked of the allocator here, when a graph is instantiated or updated, so
  // that its every allocation need not pass through graphcheck.
  std::vector<Block> Live = liveBlocksHolding(Outside);
  std::vector<Block> New;
  {
    std::lock_guard<std::mutex> L(S.M);
    // The new uses first: a block the exec still points at stays watched
    // (and announced) across an update.
    std::vector<Use> Uses;
    for (uint64_t P : Outside) {
      const Block *B = blockAt(Live, P);
      if (!B)
        continue;
      auto [It, Added] = S.Watched.try_emplace(B->first, WatchedBlock{B->second, S.NextId, 0});
      if (Added) {
        ++S.NextId;
        New.push_back(*B);
      }
      ++It->second.Uses;
      Uses.push_back({B->first, It->second.Id});
    }
    auto &Mine = S.ByExec[Exec];
    unwatchLocked(Mine);
    Mine = std::move(Uses);
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
