// Data handed from graph to graph inside one memory pool. A graph captured
// while another graph's output is alive may read it (an intermediate passed
// on, a saved activation); once that output is freed, the pool gives its
// block to whatever is captured next. At replay the reader expects the
// producer's data, so the replays must run as the captures did: if a graph
// that also writes the block (one captured later that reused it, or one
// captured earlier that held it as its own) is replayed after the producer
// and before the reader, the reader computes with the wrong data, silently.
//
// Light mode knows which graphs point into a block, not which read or write
// it; the block's lifetime says who can only have written it (reuse after a
// free, or a hold before the producer's capture). Verify mode's write sets
// narrow those writers to the replays that really wrote the block.
#include "Frames.h"
#include "HazardEngine.h"

#include <fmt/format.h>

#include <algorithm>

namespace graphsafe::rt {

void HazardEngine::onPoolBlock(const Event &E) {
  PoolBlock B;
  B.R = {E.Addr, E.Addr + E.Size};
  if (auto X = Execs.find(E.Exec); X != Execs.end())
    B.Producer = X->second.Graph; // Announced by an update of a known exec.
  size_t Id = PoolBlocks.size();
  if (B.Producer.empty())
    AwaitingProducer[E.Exec].push_back(Id);
  PoolBlocks.push_back(std::move(B));
  LivePoolBlocks[E.Addr] = Id;
  PoolBlocksByStart.emplace(E.Addr, Id);
  // Graphs instantiated before may point into it too (one captured before the
  // producer held the memory): they are looked up again once, at the next
  // launch, not once per block an instantiate announces.
  PoolUsesStale = true;
}

bool HazardEngine::onPoolBlockFree(const Event &E) {
  auto It = LivePoolBlocks.find(E.Addr);
  if (It == LivePoolBlocks.end())
    return false;
  PoolBlock &B = PoolBlocks[It->second];
  B.FreedAt = E.Seq;
  B.FreedDuring = Capturing.empty() ? "" : Capturing.back();
  B.FreeStack = E.Stack;
  LivePoolBlocks.erase(It);
  return true;
}

void HazardEngine::resolvePoolUses(Exec &X) {
  X.PoolUses.clear();
  if (PoolBlocks.empty())
    return;
  // Blocks at one address follow one another in time; a pointer is looked up
  // among the few starting at or just below it.
  constexpr int Nearby = 16;
  for (const Node &N : X.Nodes)
    for (uint64_t P : N.Pointers) {
      auto It = PoolBlocksByStart.upper_bound(P);
      for (int Seen = 0; It != PoolBlocksByStart.begin() && Seen < Nearby; ++Seen) {
        --It;
        size_t Id = It->second;
        if (!PoolBlocks[Id].R.contains(P))
          continue;
        if (std::none_of(X.PoolUses.begin(), X.PoolUses.end(),
                         [&](const PoolUse &U) { return U.Block == Id; }))
          X.PoolUses.push_back({Id, &N});
      }
    }
}

HazardEngine::PoolRole HazardEngine::poolRole(const Exec &X, const PoolBlock &B) const {
  if (B.Producer.empty())
    return PoolRole::Unknown;
  if (X.Graph == B.Producer)
    return PoolRole::Producer;
  auto Mine = CaptureBegan.find(X.Graph), Producers = CaptureBegan.find(B.Producer);
  if (Mine == CaptureBegan.end() || Producers == CaptureBegan.end())
    return PoolRole::Unknown;
  // Captured once the block was free again: the pool gave it to this graph.
  if (B.FreedAt && Mine->second > *B.FreedAt)
    return PoolRole::Writer;
  // Captured while the producer's output lived: it can only have read it (or
  // updated it in place, which the graphs after it then expect).
  if (Mine->second > Producers->second)
    return PoolRole::Consumer;
  // Captured before the producer: the memory was its own, freed and then
  // handed to the producer's capture.
  return PoolRole::Writer;
}

bool HazardEngine::seenNotToWrite(const std::string &ExecId, const Range &R) const {
  auto X = Execs.find(ExecId);
  return X != Execs.end() && X->second.Verified &&
         std::none_of(X->second.Writes.begin(), X->second.Writes.end(),
                      [&](const Touch &W) { return W.R.overlaps(R); });
}

void HazardEngine::checkPoolDataflow(const Exec &X, const Event &E) {
  if (PoolUsesStale) {
    for (auto &[Id, Other] : Execs)
      resolvePoolUses(Other);
    PoolUsesStale = false;
  }
  for (const PoolUse &U : X.PoolUses) {
    const PoolBlock &B = PoolBlocks[U.Block];
    if (poolRole(X, B) != PoolRole::Consumer || B.LastWriter.empty() || B.LastWriterProduced)
      continue;
    // Verify mode learns a replay's writes after it ran.
    if (seenNotToWrite(B.LastWriterExec, B.R))
      continue;
    const std::string &Producer = B.Producer, &Writer = B.LastWriter;
    SourceLoc FreedAt = firstLocated(B.FreeStack);
    bool Reused = B.FreedAt && CaptureBegan.count(Writer) && CaptureBegan.at(Writer) > *B.FreedAt;
    std::string How =
        Reused ? fmt::format(
                     "was captured after the block was freed{}{} and reuses it",
                     B.FreedDuring.empty() ? "" : " during the capture of " + B.FreedDuring,
                     FreedAt.valid() ? fmt::format(" (at {}:{})", FreedAt.File, FreedAt.Line) : "")
               : fmt::format("was captured before {} and held that memory as its own", Producer);
    std::vector<Note> Notes;
    auto captured = [&](const std::string &G, const std::string &What) {
      if (auto Site = CaptureSites.find(G); Site != CaptureSites.end())
        if (SourceLoc L = firstLocated(Site->second); L.valid())
          Notes.push_back({fmt::format("graph {} ({}) was captured here", G, What), L});
    };
    captured(Producer, "which produced the data");
    captured(Writer, "which overwrote it");
    if (FreedAt.valid())
      Notes.push_back(
          {"the data's last tensor was freed here, so the pool reused its block", FreedAt});
    if (SourceLoc L = firstLocated(B.LastWriterStack); L.valid())
      Notes.push_back({fmt::format("graph {} was replayed here", Writer), L});
    // The reader's launch, or its last launch whose site was taken.
    const std::vector<std::string> &ReadAt =
        X.LastLaunchStack.empty() ? E.Stack : X.LastLaunchStack;
    report("replay-input-overwritten",
           fmt::format("replay {} of graph {} (kernel '{}') reads {}, which graph {} produced for "
                       "it at capture, but replay {} of graph {} overwrote that memory after {} "
                       "last ran: {} shares their memory pool and {}; graphs that pass data "
                       "through a shared pool must replay in the order they were captured",
                       X.Replays, X.Graph, U.N->Kernel, describe(B.R), Producer, B.LastWriterReplay,
                       Writer, Producer, Writer, How),
           {X.Graph, U.N->Id, U.N->Kernel, describe(B.R)}, ReadAt, std::move(Notes),
           // Every step out of order repeats it: one finding per three graphs.
           "pool-flow:" + X.Graph + "|" + Producer + "|" + Writer);
  }
  for (const PoolUse &U : X.PoolUses) {
    PoolBlock &B = PoolBlocks[U.Block];
    PoolRole Role = poolRole(X, B);
    if (Role == PoolRole::Writer && seenNotToWrite(E.Exec, B.R))
      continue;
    if (Role != PoolRole::Producer && Role != PoolRole::Writer)
      continue;
    B.LastWriter = X.Graph;
    B.LastWriterExec = E.Exec;
    B.LastWriterProduced = Role == PoolRole::Producer;
    B.LastWriterReplay = X.Replays;
    B.LastWriterStack = X.LastLaunchStack;
  }
}

} // namespace graphsafe::rt
