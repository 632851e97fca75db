#include "CaptureTracker.h"

namespace graphsafe::inject {

CaptureTracker &captures() {
  static auto *T = new CaptureTracker; // Never destroyed, as memory().
  return *T;
}

std::string CaptureTracker::begin(uint64_t Stream) {
  std::lock_guard<std::mutex> L(M);
  std::string Id = "g" + std::to_string(Next++);
  if (ByStream.insert_or_assign(Stream, Capture{Id, pthread_self()}).second)
    ++Active;
  return Id;
}

std::string CaptureTracker::end(uint64_t Stream, CUgraph Result) {
  std::lock_guard<std::mutex> L(M);
  auto It = ByStream.find(Stream);
  if (It == ByStream.end())
    return "";
  std::string Id = It->second.Graph;
  ByStream.erase(It);
  --Active;
  if (Result)
    GraphIds[Result] = Id;
  return Id;
}

bool CaptureTracker::anyCapture() const { return Active.load(std::memory_order_relaxed) > 0; }

std::string CaptureTracker::graphOfThisThread() const {
  std::lock_guard<std::mutex> L(M);
  for (const auto &[Stream, C] : ByStream)
    if (pthread_equal(C.Thread, pthread_self()))
      return C.Graph;
  return "";
}

std::string CaptureTracker::idOf(CUgraph G) {
  std::lock_guard<std::mutex> L(M);
  auto It = GraphIds.find(G);
  if (It == GraphIds.end())
    It = GraphIds.emplace(G, "g" + std::to_string(Next++)).first;
  return It->second;
}

void CaptureTracker::setExecGraph(CUgraphExec Exec, const std::string &Graph) {
  std::lock_guard<std::mutex> L(M);
  ExecGraphs[Exec] = Graph;
}

std::string CaptureTracker::graphOfExec(CUgraphExec Exec) const {
  std::lock_guard<std::mutex> L(M);
  auto It = ExecGraphs.find(Exec);
  return It == ExecGraphs.end() ? "" : It->second;
}

void CaptureTracker::setNodeIndex(CUgraphNode N, unsigned Index) {
  std::lock_guard<std::mutex> L(M);
  NodeIndex[N] = Index;
}

int CaptureTracker::nodeIndex(CUgraphNode N) const {
  std::lock_guard<std::mutex> L(M);
  auto It = NodeIndex.find(N);
  return It == NodeIndex.end() ? -1 : static_cast<int>(It->second);
}

} // namespace graphsafe::inject
