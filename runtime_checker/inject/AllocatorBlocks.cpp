#include "AllocatorBlocks.h"

#include "AllocatorSink.h"
#include "Hex.h"
#include "HostStack.h"
#include "MemoryMap.h"
#include "SelfTime.h"
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
  bool InPool;   // Graph memory: its free matters to the graphs it passes between.
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

struct Block {
  uint64_t Start, Size;
  bool InPool;
  bool operator<(const Block &O) const { return Start < O.Start; }
};

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
          [](void *C, uint64_t A, uint64_t N, int InPool) {
            auto &Q = *static_cast<Query *>(C);
            auto It = std::lower_bound(Q.Pointers.begin(), Q.Pointers.end(), A);
            if (It != Q.Pointers.end() && *It - A < N)
              Q.Out.push_back({A, N, InPool != 0});
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
  auto It = std::upper_bound(Blocks.begin(), Blocks.end(), P,
                             [](uint64_t Q, const Block &B) { return Q < B.Start; });
  if (It == Blocks.begin())
    return nullptr;
  --It;
  return P < It->Start + It->Size ? &*It : nullptr;
}

// Forgets an exec's uses (with S.M held). A block freed meanwhile is gone
// already, and one at its address since is another block.
void unwatchLocked(std::vector<Use> &Uses) {
  for (const Use &U : Uses) {
    auto It = S.Watched.find(U.Start);
    if (It != S.Watched.end() && It->second.Id == U.Id && --It->second.Uses == 0) {
      S.Watched.erase(It);
      graphMemoryChanged();
    }
  }
  Uses.clear();
}

} // namespace

void setLiveBlockSource(GraphcheckTrackerLiveBlocks Read) { Source = Read; }

void onBlockEvent(int Event, uint64_t Addr, uint64_t Size) {
  SelfTimer Timed(SelfTimed::BlockEvents);
  Frees.fetch_add(1, std::memory_order_relaxed);
  if (Event != GraphcheckBlockFree)
    return;
  bool InPool;
  {
    std::lock_guard<std::mutex> L(S.M);
    auto It = S.Watched.find(Addr);
    if (It == S.Watched.end())
      return;
    Size = It->second.Size;
    InPool = It->second.InPool;
    S.Watched.erase(It);
    graphMemoryChanged();
  }
  // The tracker runs under the allocator's lock, where waiting for the GIL
  // could deadlock: Python frames only when this thread already holds it.
  nlohmann::json Stack = pythonStackIfHeld();
  if (Stack.empty() && !PythonFreeSite.empty())
    Stack.push_back(PythonFreeSite);
  // PyTorch lets the GIL go before a storage dies (`static_x = batch.cuda()`,
  // `del x`): the line is read by a helper that takes the GIL for us.
  // A graph's own output dying is routine (CUDA graph trees free theirs
  // between runs): it is not worth waiting for a line.
  if (Stack.empty() && !InPool)
    Stack = pythonStackOfReleasedThread(std::chrono::milliseconds(100));
  if (Stack.empty())
    Stack = nativeStack();
  nlohmann::json Free{{"ev", "block_free"},
                      {"addr", rt::hexAddress(Addr)},
                      {"size", Size},
                      {"stack", Stack},
                      {"gil", gilState()}};
  if (InPool)
    Free["pool"] = true;
  trace().writeEvent(Free);
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
  // Pointers outside graph memory land in the program's tensors; inside it,
  // only in blocks of a private pool (a segment cudaMalloc'ed during a
  // capture holds nothing else). Sorted out here, before S.M, so the memory
  // map's lock is never taken under it.
  std::vector<uint64_t> Sorted(Pointers);
  std::sort(Sorted.begin(), Sorted.end());
  Sorted.erase(std::unique(Sorted.begin(), Sorted.end()), Sorted.end());
  std::vector<bool> GraphOwned;
  for (uint64_t P : Sorted)
    GraphOwned.push_back(memory().isGraphOwned(P));
  // Asked of the allocator here, when a graph is instantiated or updated, so
  // that its every allocation need not pass through graphcheck.
  std::vector<Block> Live = liveBlocksHolding(Sorted);
  std::vector<Block> New;
  {
    std::lock_guard<std::mutex> L(S.M);
    // The new uses first: a block the exec still points at stays watched
    // (and announced) across an update.
    std::vector<Use> Uses;
    for (size_t I = 0; I < Sorted.size(); ++I) {
      const Block *B = blockAt(Live, Sorted[I]);
      if (!B || (GraphOwned[I] && !B->InPool))
        continue;
      auto [It, Added] =
          S.Watched.try_emplace(B->Start, WatchedBlock{B->Size, S.NextId, 0, B->InPool});
      if (Added) {
        graphMemoryChanged();
        ++S.NextId;
        New.push_back(*B);
      }
      ++It->second.Uses;
      Uses.push_back({B->Start, It->second.Id});
    }
    auto &Mine = S.ByExec[Exec];
    unwatchLocked(Mine);
    Mine = std::move(Uses);
  }
  // A pool block names the exec that announced it: the engine counts the
  // graph instantiated while the block was live as the one that produced it.
  for (const Block &B : New) {
    nlohmann::json Announce{{"ev", "block"}, {"addr", rt::hexAddress(B.Start)}, {"size", B.Size}};
    if (B.InPool) {
      Announce["pool"] = true;
      Announce["exec"] = rt::hexAddress(reinterpret_cast<uint64_t>(Exec));
    }
    trace().writeEvent(Announce);
  }
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
