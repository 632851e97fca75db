#include "HazardEngine.h"
#include "Frames.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace graphsafe::rt {

const HazardEngine::Allocation *HazardEngine::allocationAt(uint64_t P) const {
  auto It = Allocs.upper_bound(P);
  if (It == Allocs.begin())
    return nullptr;
  --It;
  return It->second.Live && It->second.R.contains(P) ? &It->second : nullptr;
}

std::string HazardEngine::describe(const Range &R) const {
  return fmt::format("[0x{:x}, 0x{:x}) ({} bytes)", R.Begin, R.End, R.End - R.Begin);
}

Finding *HazardEngine::report(const std::string &RuleId, const std::string &Message,
                              const RuntimeLoc &Where, const std::vector<std::string> &Stack,
                              std::vector<Note> Notes, const std::string &DedupKey) {
  // Each test that makes a hazard gets its finding: a CI report lists them
  // under their tests.
  std::string Key = CurrentTest + "|" + RuleId + "|" + Where.Graph + "|" +
                    (DedupKey.empty() ? Where.Node + "|" + Where.Buffer : DedupKey);
  if (!Reported.insert(Key).second)
    return nullptr;
  Finding F;
  F.RuleId = RuleId;
  F.Message = Message;
  F.Runtime = Where;
  const Rule *R = Rules.find(RuleId);
  F.Level = R ? R->Level : Severity::Error;
  F.Fix = R ? R->Fix : "";
  F.Test = CurrentTest;
  for (const auto &Frame : Stack) {
    if (Frame == "?")
      continue;
    // The innermost frame with a line in the program's code is the finding's location.
    Note N{"called from " + Frame, frameLoc({Frame})};
    if (!F.Loc.valid() && N.Loc.valid() && !isLibraryHeader(N.Loc.File))
      F.Loc = N.Loc;
    F.Notes.push_back(N);
  }
  for (auto &N : Notes)
    if (N.Loc.valid())
      F.Notes.push_back(std::move(N));
  if (auto Site = CaptureSites.find(Where.Graph); Site != CaptureSites.end())
    if (SourceLoc L = firstLocated(Site->second); L.valid()) {
      const std::string &In = CaptureTests[Where.Graph];
      F.Notes.push_back({"graph " + Where.Graph + " was captured here" +
                             (In != CurrentTest && !In.empty() ? " (in test " + In + ")" : ""),
                         L});
    }
  Out.push_back(std::move(F));
  return &Out.back();
}

void HazardEngine::feed(const Event &E) {
  using K = Event::Kind;
  switch (E.K) {
  case K::Alloc: {
    Allocation A{E.Alloc.empty() ? fmt::format("alloc@{}", E.Seq) : E.Alloc,
                 {E.Addr, E.Addr + E.Size},
                 E.Graph.empty() && !Capturing.empty() ? Capturing.back() : E.Graph};
    Allocs[E.Addr] = A;
    return;
  }
  case K::Free:
    if (auto It = Allocs.find(E.Addr); It != Allocs.end()) {
      It->second.Live = false;
      // A write pending in memory given back is no later graph's business.
      const Range &Gone = It->second.R;
      EagerWrites.erase(std::remove_if(EagerWrites.begin(), EagerWrites.end(),
                                       [&](const EagerWrite &W) { return Gone.overlaps(W.R); }),
                        EagerWrites.end());
    }
    return;
  case K::CaptureBegin:
    Capturing.push_back(E.Graph);
    CaptureOrder.emplace(E.Graph, CaptureOrder.size());
    CaptureBegan[E.Graph] = E.Seq;
    CaptureTests[E.Graph] = CurrentTest;
    // A Python program's site comes from the shim, just before.
    CaptureSites[E.Graph] = E.Stack.empty() ? PendingCaptureSite : E.Stack;
    PendingCaptureSite.clear();
    return;
  case K::CaptureEnd:
    if (!Capturing.empty())
      Capturing.pop_back();
    return;
  case K::GraphExec:
    return onGraphExec(E);
  case K::NodeUpdate:
    return onNodeUpdate(E);
  case K::ExecWrites:
    return onExecWrites(E);
  case K::Launch:
    return onLaunch(E);
  case K::EventRecord:
    return Order.record(E.CudaEvent, E.Stream);
  case K::StreamWait:
    return Order.wait(E.Stream, E.CudaEvent);
  case K::HostSync:
    if (!E.Stream.empty())
      return Order.hostWaitsStream(E.Stream);
    if (!E.CudaEvent.empty())
      return Order.hostWaitsEvent(E.CudaEvent);
    return Order.hostWaitsDevice();
  case K::EagerKernel:
    return onEager(E);
  case K::EagerGap:
    // An unseen kernel may read a pending write before the next replay:
    // calling it lost would be a guess.
    EagerWrites.clear();
    return;
  case K::TensorOut: {
    Range R{E.Addr, E.Addr + E.Size};
    std::string Exec = E.Exec;
    // The Python shim cannot name the exec; the producer is the most recently
    // launched graph whose kernels reach the tensor.
    for (auto It = LaunchOrder.rbegin(); Exec.empty() && It != LaunchOrder.rend(); ++It)
      for (const Touch &T : Execs[*It].Touches)
        if (T.reaches(R)) {
          Exec = *It;
          break;
        }
    auto It = Execs.find(Exec);
    Tensors[E.Tensor] = {Exec, R,      It == Execs.end() ? 0 : It->second.Replays, false, "",
                         "",   E.Stack};
    return;
  }
  case K::TensorDead:
    Tensors.erase(E.Tensor);
    return;
  case K::GradInstalled: {
    // A grad installed during capture is the documented whole-network
    // pattern: the graph refills it each replay by design.
    if (!Capturing.empty()) {
      Grads.erase(E.Param);
      setRole(E.Addr, E.Size, E.Param + ".grad");
      CapturedGrads.insert(E.Param + ".grad");
      return;
    }
    const Allocation *A = allocationAt(E.Addr);
    Grads[E.Param] = {{E.Addr, E.Addr + E.Size}, A ? A->OwnerGraph : "", E.Seq, E.Stack};
    setRole(E.Addr, E.Size, E.Param + ".grad");
    return;
  }
  case K::GradReleased:
    Grads.erase(E.Param);
    setRole(E.Addr, E.Size, E.Param + ".grad");
    return;
  case K::Block:
    return onBlock(E);
  case K::BlockFree:
    return onBlockFree(E);
  case K::ExecDestroy:
    Execs.erase(E.Exec);
    dropFromLaunchOrder(E.Exec);
    return;
  case K::Meta:
    if (E.Api == "capture_site")
      PendingCaptureSite = E.Stack;
    if (E.Api == "test")
      onTest(E.Name);
    return;
  case K::ApiInCapture: {
    static const std::map<std::string, std::string> RuleFor = {
        {"sync", "sync-during-capture"},
        {"legacy-stream", "legacy-stream-during-capture"},
        {"alloc", "alloc-during-capture"},
        {"unjoined", "unjoined-capture"}};
    auto It = RuleFor.find(E.ApiKind);
    if (It == RuleFor.end())
      return;
    std::string G = E.Graph.empty() && !Capturing.empty() ? Capturing.back() : E.Graph;
    // The Python shim words its own message (an operation PyTorch refused).
    report(It->second,
           E.Name.empty() ? fmt::format("'{}' called while graph {} was being captured", E.Api, G)
                          : fmt::format("{} (while graph {} was being captured)", E.Name, G),
           {G, "", E.Api, ""}, E.Stack);
    return;
  }
  }
}

bool HazardEngine::Touch::reaches(const Range &Other) const {
  if (ExactWrite || Pointers.empty())
    return R.overlaps(Other);
  for (uint64_t P : Pointers)
    if (Other.contains(P))
      return true;
  return false;
}

void HazardEngine::onGraphExec(const Event &E) {
  Exec &X = Execs[E.Exec];
  X = Exec{};
  X.Graph = E.Graph;
  X.Nodes = E.Nodes;
  // Its pool blocks were announced just before, naming this exec.
  if (auto It = AwaitingProducer.find(E.Exec); It != AwaitingProducer.end()) {
    for (size_t Id : It->second)
      PoolBlocks[Id].Producer = E.Graph;
    AwaitingProducer.erase(It);
  }
  resolveTouches(X);
}

void HazardEngine::resolveTouches(Exec &X) {
  X.Touches.clear();
  X.PoolSegments.clear();
  for (const Node &N : X.Nodes) {
    std::map<uint64_t, size_t> ByAllocation; // allocation start -> index in Touches
    for (uint64_t P : N.Pointers) {
      const Allocation *A = allocationAt(P);
      if (!A) {
        X.Touches.push_back({&N, {P, P + 1}, "", false, {P}, {}});
        continue;
      }
      if (!A->OwnerGraph.empty())
        X.PoolSegments.insert(A->Id);
      auto [It, New] = ByAllocation.emplace(A->R.Begin, X.Touches.size());
      if (New)
        X.Touches.push_back({&N, A->R, A->Id, false, {}, {}});
      Touch &T = X.Touches[It->second];
      T.Pointers.push_back(P);
      // The graph's own pool is its business: its outputs dying is normal.
      if (auto B = LiveBlocks.upper_bound(P); A->OwnerGraph.empty() && B != LiveBlocks.begin())
        if (size_t Id = std::prev(B)->second;
            Blocks[Id].R.contains(P) &&
            std::find(T.Blocks.begin(), T.Blocks.end(), Id) == T.Blocks.end())
          T.Blocks.push_back(Id);
    }
  }
  resolvePoolUses(X);
  resolveWrites(X);
}

// Write sets arrive after instantiate (verify mode learns them at replays):
// they change what the exec writes, never what its pointers were built
// against. Resolving the pointers again then would forget blocks freed in
// between, which is exactly what graph-uses-freed-memory must see.
void HazardEngine::resolveWrites(Exec &X) {
  X.Touches.erase(std::remove_if(X.Touches.begin(), X.Touches.end(),
                                 [](const Touch &T) { return T.ExactWrite; }),
                  X.Touches.end());
  X.Writes.clear();
  for (const Node &N : X.Nodes) {
    for (const Range &W : N.Writes) {
      const Allocation *A = allocationAt(W.Begin);
      X.Writes.push_back({&N, W, A ? A->Id : "", true, {}, {}});
    }
    // A node seen only by what it wrote (no pointers) is touched there.
    if (!N.Writes.empty() && N.Pointers.empty())
      X.Touches.insert(X.Touches.end(), X.Writes.end() - N.Writes.size(), X.Writes.end());
  }
  X.Verified = X.Verified || !X.Writes.empty();
}

// Applies each node of E to the exec's node with the same id, then
// re-resolves the exec's touches; Verified says whether the exec's write set
// is known regardless of what its nodes now hold.
template <typename Apply>
void HazardEngine::updateNodes(const Event &E, bool Verified, bool NewPointers, Apply Fn) {
  auto It = Execs.find(E.Exec);
  if (It == Execs.end())
    return;
  for (const Node &From : E.Nodes)
    for (Node &N : It->second.Nodes)
      if (N.Id == From.Id)
        Fn(N, From);
  It->second.Verified = Verified; // resolveWrites adds: any node with writes.
  if (NewPointers)
    resolveTouches(It->second);
  else
    resolveWrites(It->second);
}

void HazardEngine::onNodeUpdate(const Event &E) {
  updateNodes(E, false, true, [](Node &Old, const Node &New) {
    Old.Pointers = New.Pointers;
    Old.Kernel = New.Kernel.empty() ? Old.Kernel : New.Kernel;
    Old.Writes.clear(); // What the old parameters wrote says nothing now.
  });
}

void HazardEngine::onExecWrites(const Event &E) {
  // Replays are snapshotted a few times; their write sets add up.
  updateNodes(E, true, false, [](Node &N, const Node &Seen) {
    N.Writes.insert(N.Writes.end(), Seen.Writes.begin(), Seen.Writes.end());
  });
}

void HazardEngine::onLaunch(const Event &E) {
  auto It = Execs.find(E.Exec);
  if (It == Execs.end())
    return;
  Exec &X = It->second;
  ++X.Replays;
  // A launch captured into another graph runs only when that graph does.
  if (Capturing.empty()) {
    checkConcurrentReplays(E.Exec, X, E);
    X.LastLaunch = Order.launch(E.Stream);
    // Sites are taken for a launch's first few replays only: the last one
    // known stands for the later ones.
    if (!E.Site.empty() || !E.Stack.empty())
      X.LastLaunchStack = E.Site.empty() ? E.Stack : E.Site;
  }
  dropFromLaunchOrder(E.Exec);
  LaunchOrder.push_back(E.Exec);
  for (const Touch &T : X.Touches) {
    // graph-uses-freed-memory, block-precise: a tensor the node was built
    // against died, whether or not its cached segment went back to CUDA.
    bool BlockFreed = false;
    for (size_t Id : T.Blocks)
      if (!Blocks[Id].Live) {
        noteFreedUse(X, T, Id, E);
        BlockFreed = true;
      }
    if (BlockFreed)
      continue;
    // The same at segment level, for memory outside PyTorch's caching
    // allocator: the allocation the node was built against is gone.
    const Allocation *Now = allocationAt(T.R.Begin);
    if (T.Alloc.empty() || (Now && Now->Id == T.Alloc))
      continue;
    report(
        "graph-uses-freed-memory",
        Now ? fmt::format(
                  "replay {} of graph {}: kernel '{}' points into {}, which was freed and now "
                  "belongs to another allocation ({})",
                  X.Replays, X.Graph, T.N->Kernel, describe(T.R), Now->Id)
            : fmt::format("replay {} of graph {}: kernel '{}' points into {}, freed since capture",
                          X.Replays, X.Graph, T.N->Kernel, describe(T.R)),
        {X.Graph, T.N->Id, T.N->Kernel, describe(T.R)}, E.Stack);
  }
  for (const Touch &T : X.writers())
    checkOverwrites(X, T, E);
  if (Capturing.empty())
    checkPoolDataflow(X, E);
}

void HazardEngine::checkOverwrites(const Exec &X, const Touch &T, const Event &E) {
  std::vector<Range> AliasedGrads; // Their eager accumulation is that finding's symptom.
  for (auto &[Param, G] : Grads) {
    if (!T.reaches(G.R) || G.Owner.empty())
      continue;
    AliasedGrads.push_back(G.R);
    report("grad-aliases-graph-buffer",
           fmt::format("{}.grad is the graph's own buffer {}; replay {} of graph {} (kernel '{}') "
                       "overwrites it while it is still the live gradient",
                       Param, describe(G.R), X.Replays, X.Graph, T.N->Kernel),
           {X.Graph, T.N->Id, T.N->Kernel, describe(G.R) + " = " + Param + ".grad"},
           E.Stack.empty() ? G.Stack : E.Stack,
           {{fmt::format(
                 "{}.grad was set to the graph's buffer here (autograd adopted it without a copy)",
                 Param),
             frameLoc(G.Stack)}},
           "param:" + Param);
  }
  for (auto &[Id, H] : Tensors) {
    if (H.Overwritten || !T.reaches(H.R))
      continue;
    if (H.Exec == E.Exec) {
      if (H.Replay < X.Replays) {
        H.Overwritten = true;
        H.OverwrittenBy = fmt::format("replay {} of graph {}", X.Replays, X.Graph);
      }
      continue;
    }
    // Another graph reaching this output's memory: a graph captured before the
    // producer can only hold it as its own memory, which the shared pool gave
    // the producer afterwards. Replayed now, it overwrites the output: the
    // graphs were replayed out of capture order. (A graph captured after the
    // producer may just read the output, its input.)
    auto P = Execs.find(H.Exec);
    if (P == Execs.end() || !capturedBefore(X.Graph, P->second.Graph))
      continue;
    H.Overwritten = true;
    H.OverwriterGraph = X.Graph;
    H.OverwrittenBy = fmt::format("replay {} of graph {}", X.Replays, X.Graph);
  }
  for (auto W = EagerWrites.begin(); W != EagerWrites.end();) {
    if (!T.reaches(W->R)) {
      ++W;
      continue;
    }
    if (std::none_of(AliasedGrads.begin(), AliasedGrads.end(),
                     [&](const Range &G) { return G.overlaps(W->R); }))
      report("eager-write-lost-at-replay",
             fmt::format("eager kernel '{}' wrote graph-owned memory {} after capture and nothing "
                         "read it before replay {} of graph {} (kernel '{}') overwrote it",
                         W->Kernel, describe(W->R), X.Replays, X.Graph, T.N->Kernel),
             {X.Graph, T.N->Id, T.N->Kernel, describe(T.R)}, E.Stack);
    W = EagerWrites.erase(W);
  }
}

bool HazardEngine::capturedBefore(const std::string &A, const std::string &B) const {
  auto IA = CaptureOrder.find(A), IB = CaptureOrder.find(B);
  return IA != CaptureOrder.end() && IB != CaptureOrder.end() && IA->second < IB->second;
}

void HazardEngine::dropFromLaunchOrder(const std::string &Exec) {
  LaunchOrder.erase(std::remove(LaunchOrder.begin(), LaunchOrder.end(), Exec), LaunchOrder.end());
}

void HazardEngine::onBlock(const Event &E) {
  if (E.Pool)
    return onPoolBlock(E);
  LiveBlocks[E.Addr] = Blocks.size();
  Blocks.push_back({{E.Addr, E.Addr + E.Size}, true, {}});
}

void HazardEngine::onBlockFree(const Event &E) {
  if (E.Pool && onPoolBlockFree(E))
    return;
  auto It = LiveBlocks.find(E.Addr);
  if (It == LiveBlocks.end())
    return;
  Block &B = Blocks[It->second];
  B.Live = false;
  B.FreeStack = E.Stack;
  LiveBlocks.erase(It);
}

void HazardEngine::onTest(const std::string &Value) {
  // pytest appends the phase: " (setup)", " (call)", " (teardown)". A
  // fixture's capture in setup belongs to the test all the same.
  std::string Test = Value;
  if (size_t Phase = Test.rfind(" ("); Phase != std::string::npos && Test.back() == ')')
    Test.erase(Phase);
  CurrentTest = Test;
  if (!Test.empty() && TestsSeen.insert(Test).second)
    Tests.push_back(Test);
}

bool HazardEngine::isCapturedGrad(const Range &R) const {
  return CapturedGrads.count(roleOf(R)) > 0;
}

void HazardEngine::setRole(uint64_t Addr, uint64_t Size, const std::string &Role) {
  if (Addr && Size)
    Roles[Addr] = {Addr + Size, Role};
}

std::string HazardEngine::roleOf(const Range &R) const {
  auto It = Roles.upper_bound(R.End - 1);
  if (It == Roles.begin())
    return "";
  --It;
  return Range{It->first, It->second.first}.overlaps(R) ? It->second.second : "";
}

void HazardEngine::noteFreedUse(const Exec &X, const Touch &T, size_t Id, const Event &Launch) {
  const Block &B = Blocks[Id];
  const std::string Role = roleOf(B.R);
  const std::string Key = X.Graph + "|" + std::to_string(Id);
  auto It = FreedUses.find(Key);
  if (It == FreedUses.end()) {
    std::vector<Note> Notes;
    if (SourceLoc L = firstLocated(Launch.Stack); L.valid())
      Notes.push_back({"replayed here", L});
    Finding *F =
        report("graph-uses-freed-memory", "",
               {X.Graph, T.N->Id, T.N->Kernel, describe(B.R) + (Role.empty() ? "" : " = " + Role)},
               B.FreeStack, std::move(Notes), "block:" + std::to_string(Id));
    if (!F)
      return;
    bool IsGrad = Role.size() > 5 && Role.compare(Role.size() - 5, 5, ".grad") == 0;
    F->Fix = IsGrad ? "Keep the .grad storage the graph writes: zero grads in place between "
                      "replays (optimizer.zero_grad(set_to_none=False)), or set them to None "
                      "before capture so the capture allocates them in the graph's own pool."
                    : "Copy new data into the static input (static_x.copy_(batch)) instead of "
                      "rebinding or deleting it, and keep every tensor the graph uses alive for "
                      "as long as the graph is replayed.";
    It = FreedUses.emplace(Key, FreedUse{Out.size() - 1, X.Replays}).first;
  }
  FreedUse &U = It->second;
  U.Nodes.insert(T.N->Id);
  if (U.LastReplay != X.Replays) {
    ++U.Replays;
    U.LastReplay = X.Replays;
  }
  SourceLoc FreedAt = firstLocated(B.FreeStack);
  Finding &F = Out[U.Finding];
  F.Message = fmt::format(
      "replay {} of graph {}: kernel '{}' (node {}) uses {} {}, freed after capture{}; {} "
      "node(s) of the graph point into it, {} replay(s) used it after the free",
      U.FirstReplay, X.Graph, F.Runtime->Kernel, F.Runtime->Node,
      Role.empty() ? "a tensor allocated before the capture (a static input)"
                   : "the storage of " + Role,
      describe(B.R), FreedAt.valid() ? fmt::format(" at {}:{}", FreedAt.File, FreedAt.Line) : "",
      U.Nodes.size(), U.Replays);
}

void HazardEngine::onEager(const Event &E) {
  std::vector<Range> Touched;
  for (uint64_t P : E.Pointers)
    if (const Allocation *A = allocationAt(P))
      Touched.push_back(A->R);
  // read-after-overwrite: a handed-out tensor a later replay overwrote is read
  // now. Judged by the kernel's own pointers, not whole allocations: a pool
  // segment holds many tensors.
  for (auto &[Id, H] : Tensors) {
    if (!H.Overwritten || std::none_of(E.Pointers.begin(), E.Pointers.end(),
                                       [&](uint64_t P) { return H.R.contains(P); }))
      continue;
    auto X = Execs.find(H.Exec);
    std::string Graph = X == Execs.end() ? "" : X->second.Graph;
    std::vector<Note> Notes = {
        {fmt::format("{} was handed out here; keep a copy (.clone()) to use it after the "
                     "graph's next replay",
                     Id),
         frameLoc(H.Stack)}};
    std::string Why;
    if (!H.OverwriterGraph.empty()) {
      Why = fmt::format(": {0} shares {1}'s memory pool and was captured before it, so its "
                        "replay reuses memory {1}'s outputs hold; graphs sharing a pool must "
                        "replay in the order they were captured",
                        H.OverwriterGraph, Graph);
      if (auto Site = CaptureSites.find(H.OverwriterGraph); Site != CaptureSites.end())
        if (SourceLoc L = frameLoc(Site->second); L.valid())
          Notes.push_back({fmt::format("graph {} was captured here", H.OverwriterGraph), L});
    }
    report("read-after-overwrite",
           fmt::format("tensor {} handed out by replay {} of graph {} is read by '{}' after {} "
                       "overwrote its memory{}",
                       Id, H.Replay, Graph.empty() ? "exec " + H.Exec : Graph, E.Kernel,
                       H.OverwrittenBy, Why),
           {Graph, "", E.Kernel, describe(H.R) + " = " + Id}, E.Stack, std::move(Notes),
           // Out of capture order, every step repeats it: one finding per pair of graphs.
           H.OverwriterGraph.empty() ? "" : "pool-order:" + Graph + "|" + H.OverwriterGraph);
  }
  consumeEagerWrites(E);
  std::vector<Range> Writes = E.Writes;
  if (Writes.empty() && Opts.AssumeEagerWrites)
    Writes = Touched;
  for (const Range &W : Writes)
    if (const Allocation *A = allocationAt(W.Begin); A && !A->OwnerGraph.empty()) {
      // Grads the graph allocated are refilled by every replay by design:
      // unscaling, clipping or zeroing them in place is consumed by the
      // optimizer or, on a step GradScaler skips, dropped on purpose.
      if (isCapturedGrad(W))
        continue;
      uint64_t Anchor = W.Begin;
      for (uint64_t P : E.Pointers)
        if (P <= W.Begin && A->R.contains(P) && (Anchor == W.Begin || P > Anchor))
          Anchor = P;
      EagerWrites.push_back({E.Kernel.empty() ? "eager" : E.Kernel, W, Anchor});
    }
}

// A write is lost only if nothing reads it before a replay overwrites it: a
// later eager kernel pointing at the written tensor (GradScaler unscaling
// graph-owned grads that the optimizer then reads) consumes it.
void HazardEngine::consumeEagerWrites(const Event &E) {
  EagerWrites.erase(std::remove_if(EagerWrites.begin(), EagerWrites.end(),
                                   [&](const EagerWrite &W) {
                                     return std::any_of(E.Pointers.begin(), E.Pointers.end(),
                                                        [&](uint64_t P) {
                                                          return P == W.Anchor || W.R.contains(P);
                                                        });
                                   }),
                    EagerWrites.end());
}

} // namespace graphsafe::rt

namespace graphsafe::rt {

std::string HazardEngine::dot(const std::string &Graph) const {
  std::set<std::string> FlaggedNodes, FlaggedBuffers;
  for (const auto &F : Out)
    if (F.Runtime && F.Runtime->Graph == Graph) {
      FlaggedNodes.insert(F.Runtime->Node);
      FlaggedBuffers.insert(F.Runtime->Buffer.substr(0, F.Runtime->Buffer.find(')') + 1));
    }
  auto quote = [](std::string S) {
    if (S.size() > 60)
      S = S.substr(0, 57) + "...";
    std::string Q;
    for (char C : S)
      Q += (C == '"' || C == '\\') ? std::string("\\") + C : std::string(1, C);
    return "\"" + Q + "\"";
  };
  std::string Text = "digraph " + quote(Graph) + " {\n  rankdir=LR;\n  node [fontsize=10];\n";
  bool Found = false;
  for (const auto &[Id, X] : Execs) {
    if (X.Graph != Graph)
      continue;
    Found = true;
    for (const Node &N : X.Nodes) {
      bool Red = FlaggedNodes.count(N.Id) > 0;
      Text += fmt::format("  {} [shape=box, label={}{}];\n", quote("n" + N.Id),
                          quote(N.Id + ": " + N.Kernel), Red ? ", color=red, penwidth=2" : "");
    }
    // A buffer is red when any node's pointer into it is inside a flagged range.
    std::map<std::string, bool> Buffers;
    for (const Touch &T : X.Touches) {
      bool &Red = Buffers[describe(T.R)];
      for (const auto &FB : FlaggedBuffers)
        for (uint64_t P : T.Pointers)
          Red = Red || FB.find(fmt::format("0x{:x}", P)) != std::string::npos;
    }
    for (const auto &[B, Red] : Buffers)
      Text +=
          fmt::format("  {} [shape=ellipse, label={}{}];\n", quote(B),
                      quote(B.substr(0, B.find(')') + 1)), Red ? ", color=red, penwidth=2" : "");
    for (const Touch &T : X.Touches)
      Text += fmt::format("  {} -> {};\n", quote("n" + T.N->Id), quote(describe(T.R)));
  }
  Text += "}\n";
  return Found ? Text : "";
}

} // namespace graphsafe::rt
