// Graphs captured into one memory pool share their temporaries' memory, which
// PyTorch allows only if they never run at the same time. So do graphs with
// pools of their own captured on one capture stream: PyTorch keys the cuBLAS
// workspace by stream, and the first capture's pool holds it for all of them
// (pytorch/pytorch#193402). A replay launched on one stream while a replay of
// a graph sharing memory with it may still run on another stream (no event
// wait, no synchronization between them) corrupts both.
#include "Frames.h"
#include "HazardEngine.h"

#include <fmt/format.h>

#include <algorithm>

namespace graphsafe::rt {

void HazardEngine::checkConcurrentReplays(const std::string &Id, const Exec &X, const Event &E) {
  if (X.PoolSegments.empty())
    return;
  for (const auto &[OtherId, Y] : Execs) {
    if (OtherId == Id || Y.Graph == X.Graph || !Y.LastLaunch ||
        Order.orderedBefore(*Y.LastLaunch, E.Stream))
      continue;
    auto Shared = std::find_if(Y.PoolSegments.begin(), Y.PoolSegments.end(),
                               [&](const std::string &S) { return X.PoolSegments.count(S); });
    if (Shared == Y.PoolSegments.end())
      continue;
    std::string Owner;
    for (const auto &[Start, A] : Allocs)
      if (A.Id == *Shared)
        Owner = A.OwnerGraph;
    std::vector<Note> Notes;
    if (SourceLoc L = firstLocated(Y.LastLaunchStack); L.valid())
      Notes.push_back(
          {fmt::format("graph {} was replayed here, on stream {}", Y.Graph, Y.LastLaunch->Stream),
           L});
    if (auto Site = CaptureSites.find(Y.Graph); Site != CaptureSites.end())
      if (SourceLoc L = firstLocated(Site->second); L.valid())
        Notes.push_back({fmt::format("graph {} was captured here", Y.Graph), L});
    report("replay-race-shared-pool",
           fmt::format("replay {} of graph {} on stream {} may run at the same time as replay {} "
                       "of graph {} on stream {}: both use segment {}, allocated while graph {} "
                       "was captured (one memory pool, or a library workspace such as cuBLAS's, "
                       "which PyTorch keeps per capture stream), and nothing orders the two "
                       "replays (no event wait or synchronization between them)",
                       X.Replays, X.Graph, E.Stream, Y.Replays, Y.Graph, Y.LastLaunch->Stream,
                       *Shared, Owner),
           {X.Graph, "", "", *Shared}, E.Site.empty() ? E.Stack : E.Site, std::move(Notes),
           // Every step repeats it: one finding per pair of graphs.
           "race:" + std::min(X.Graph, Y.Graph) + "|" + std::max(X.Graph, Y.Graph));
  }
}

} // namespace graphsafe::rt
