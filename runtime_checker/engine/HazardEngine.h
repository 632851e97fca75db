// Turns graphcheck's event stream into findings. Plain C++: no CUDA, so it is
// tested from recorded traces on machines without a GPU.
//
// Cost model: node pointers are resolved to allocations once per graph exec
// (at instantiate); a launch does constant work plus the checks of the ranges
// that exec touches.
#pragma once

#include "Events.h"
#include "StreamOrder.h"
#include "graphsafe/Finding.h"
#include "graphsafe/Rule.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace graphsafe::rt {

struct EngineOptions {
  // Without verify mode, pointers alone cannot tell reads from writes. Eager
  // kernels with no known write set count as writers only when this is set.
  bool AssumeEagerWrites = false;
};

class HazardEngine {
public:
  explicit HazardEngine(const RuleSet &Rules, EngineOptions Opts = {}) : Rules(Rules), Opts(Opts) {}

  void feed(const Event &E);
  const std::vector<Finding> &findings() const { return Out; }
  // The tests the program ran (pytest node ids), in the order they began.
  const std::vector<std::string> &tests() const { return Tests; }

  // The graph as DOT: kernel nodes, the allocations they point into, and in
  // red the nodes and buffers that findings name. Empty for an unknown graph.
  std::string dot(const std::string &Graph) const;

private:
  struct Allocation {
    std::string Id;
    Range R;
    std::string OwnerGraph; // Non-empty when allocated while that graph was captured.
    bool Live = true;
  };
  struct Touch {
    const Node *N;
    Range R;           // The allocation (or exact write range) the node touches.
    std::string Alloc; // Allocation id at instantiate time.
    bool ExactWrite;
    std::vector<uint64_t> Pointers; // The node's pointers into R.
    // Caching-allocator blocks (ids into Blocks) those pointers fell in at
    // instantiate: what lets a freed tensor inside a cached segment be seen.
    std::vector<size_t> Blocks;

    // Whether this touch reaches into Other. Pointers are where kernels start
    // reading or writing (tensor data pointers), so they place a touch far more
    // precisely than the whole allocation, which a caching allocator shares
    // among many tensors.
    bool reaches(const Range &Other) const;
  };
  // A kernel node's pointer into a pool block.
  struct PoolUse {
    size_t Block;
    const Node *N;
  };
  struct Exec {
    std::string Graph;
    std::vector<Node> Nodes;
    std::vector<Touch> Touches; // Every pointer, resolved at instantiate.
    // Once verify mode saw replays, only what they wrote counts as written.
    bool Verified = false;
    std::vector<Touch> Writes;
    uint64_t Replays = 0;
    // Graph-pool segments (allocated under some capture) its kernels use:
    // two graphs using one were captured into one pool.
    std::set<std::string> PoolSegments;
    std::vector<PoolUse> PoolUses;
    std::optional<StreamOrder::Stamp> LastLaunch;
    std::vector<std::string> LastLaunchStack;
    const std::vector<Touch> &writers() const { return Verified ? Writes : Touches; }
  };
  struct HandedOut {
    std::string Exec;
    Range R;
    uint64_t Replay;
    bool Overwritten = false;
    std::string OverwrittenBy;
    std::string OverwriterGraph;    // Set when another graph of its pool overwrote it.
    std::vector<std::string> Stack; // Where it was handed out.
  };
  // A block of PyTorch's caching allocator that some graph points into.
  struct Block {
    Range R;
    bool Live = true;
    std::vector<std::string> FreeStack; // Where it was freed.
  };
  // A block of a private pool that a graph pointed into when it was
  // instantiated: that graph's output, which graphs captured while it lived
  // may read, and which the pool gives to later captures once it is freed.
  struct PoolBlock {
    Range R;
    std::string Producer;            // The graph of the exec that announced it.
    std::optional<uint64_t> FreedAt; // Seq of its free.
    std::string FreedDuring;         // The graph under capture then, if any.
    std::vector<std::string> FreeStack;
    // The graph whose replay wrote it last (empty: none yet), whether that
    // was its producer, and where that replay was launched.
    std::string LastWriter, LastWriterExec;
    bool LastWriterProduced = false;
    uint64_t LastWriterReplay = 0;
    std::vector<std::string> LastWriterStack;
  };
  enum class PoolRole { Producer, Consumer, Writer, Unknown };
  // One finding per graph and freed block, its counts kept current.
  struct FreedUse {
    size_t Finding;
    uint64_t FirstReplay, Replays = 0, LastReplay = 0;
    std::set<std::string> Nodes;
  };
  // An eager kernel's write into graph-owned memory, not yet read by anyone.
  struct EagerWrite {
    std::string Kernel;
    Range R;
    uint64_t Anchor; // The writer's pointer at or below R (the tensor it wrote).
  };
  struct Grad {
    Range R;
    std::string Owner; // Graph owning the memory, empty when eager.
    uint64_t Seq;
    std::vector<std::string> Stack; // Where the grad was installed.
  };

  const Allocation *allocationAt(uint64_t P) const;
  void onGraphExec(const Event &E);
  void resolveTouches(Exec &X);
  void resolveWrites(Exec &X);
  template <typename Apply>
  void updateNodes(const Event &E, bool Verified, bool NewPointers, Apply Fn);
  void onNodeUpdate(const Event &E);
  void onExecWrites(const Event &E);
  void onLaunch(const Event &E);
  void checkOverwrites(const Exec &X, const Touch &T, const Event &E);
  // replay-race-shared-pool: X launched now on E's stream while a replay of a
  // graph sharing its pool may still run on another stream.
  void checkConcurrentReplays(const std::string &Id, const Exec &X, const Event &E);
  void onEager(const Event &E);
  void consumeEagerWrites(const Event &E);
  void dropFromLaunchOrder(const std::string &Exec);
  // Whether graph A began its capture before graph B.
  bool capturedBefore(const std::string &A, const std::string &B) const;
  void onBlock(const Event &E);
  void onBlockFree(const Event &E);
  // PYTEST_CURRENT_TEST changed: "path::test (call)", or empty between tests.
  void onTest(const std::string &Value);
  // replay-input-overwritten (PoolDataflow.cpp): data handed from graph to
  // graph inside one pool, checked against what replays wrote since.
  void onPoolBlock(const Event &E);
  bool onPoolBlockFree(const Event &E);
  void resolvePoolUses(Exec &X);
  PoolRole poolRole(const Exec &X, const PoolBlock &B) const;
  void checkPoolDataflow(const Exec &X, const Event &E);
  // Whether verify mode saw the exec's replays and none wrote into R.
  bool seenNotToWrite(const std::string &ExecId, const Range &R) const;
  // Reports a replay of X whose touch T points into the freed block Id.
  void noteFreedUse(const Exec &X, const Touch &T, size_t Id, const Event &Launch);
  std::string roleOf(const Range &R) const;
  // Whether R is a .grad that autograd installed while a graph was captured.
  bool isCapturedGrad(const Range &R) const;
  void setRole(uint64_t Addr, uint64_t Size, const std::string &Role);
  Finding *report(const std::string &RuleId, const std::string &Message, const RuntimeLoc &Where,
                  const std::vector<std::string> &Stack = {}, std::vector<Note> Notes = {},
                  const std::string &DedupKey = "");
  std::string describe(const Range &R) const;

  const RuleSet &Rules;
  EngineOptions Opts;
  std::map<uint64_t, Allocation> Allocs; // By start address.
  std::vector<std::string> Capturing;    // Graphs under capture, innermost last.
  std::map<std::string, std::vector<std::string>> CaptureSites; // Graph -> stack at capture begin.
  std::map<std::string, size_t> CaptureOrder;                   // Graph -> its capture's rank.
  std::map<std::string, uint64_t> CaptureBegan; // Graph -> seq of its (last) capture begin.
  std::vector<std::string> PendingCaptureSite;
  // Under pytest: the test running now, each test seen, and the test that
  // captured each graph.
  std::string CurrentTest;
  std::vector<std::string> Tests;
  std::set<std::string> TestsSeen;
  std::map<std::string, std::string> CaptureTests;
  std::map<std::string, Exec> Execs;
  std::map<std::string, HandedOut> Tensors;
  std::map<std::string, Grad> Grads;
  std::vector<std::string> LaunchOrder; // Execs, most recent launch last.
  StreamOrder Order;
  // Graph-owned ranges written eagerly since the last replay and not read since.
  std::vector<EagerWrite> EagerWrites;
  std::vector<Block> Blocks;                                  // By id.
  std::map<uint64_t, size_t> LiveBlocks;                      // Start address -> block id.
  std::map<uint64_t, std::pair<uint64_t, std::string>> Roles; // Start -> (end, "weight.grad").
  std::set<std::string> CapturedGrads;                        // Roles installed under capture.
  std::map<std::string, FreedUse> FreedUses;                  // "graph|block id" -> its finding.
  std::vector<PoolBlock> PoolBlocks;                          // By id.
  std::map<uint64_t, size_t> LivePoolBlocks;                  // Start address -> pool block id.
  // Blocks an instantiate announced before its exec event named the graph.
  std::map<std::string, std::vector<size_t>> AwaitingProducer; // exec -> pool block ids
  std::multimap<uint64_t, size_t> PoolBlocksByStart;           // Dead ones too.
  bool PoolUsesStale = false;     // Blocks announced since execs' PoolUses were looked up.
  std::set<std::string> Reported; // Deduplication keys.
  std::vector<Finding> Out;
};

} // namespace graphsafe::rt
