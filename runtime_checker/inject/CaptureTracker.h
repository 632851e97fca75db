// Which streams are capturing which graph, from which thread, and the ids
// graphcheck gives graphs and execs. Capture can begin through the runtime or
// the driver; both land here.
#pragma once

#include <cuda.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <pthread.h>
#include <string>

namespace graphsafe::inject {

class CaptureTracker {
public:
  // Returns the new graph's id ("g3").
  std::string begin(uint64_t Stream);
  // Returns the id of the graph the stream was capturing, "" when none.
  std::string end(uint64_t Stream, CUgraph Result);

  bool anyCapture() const;
  std::string graphOfThisThread() const;
  // The id of a graph, for graphs built without capture (explicit API) too.
  std::string idOf(CUgraph G);

  void setExecGraph(CUgraphExec Exec, const std::string &Graph);
  std::string graphOfExec(CUgraphExec Exec) const;

  // Node handles of each graph, in the order the graph_exec event numbered
  // them, so a node parameter update can name the node.
  void setNodeIndex(CUgraphNode N, unsigned Index);
  int nodeIndex(CUgraphNode N) const;

private:
  mutable std::mutex M;
  uint64_t Next = 0;
  struct Capture {
    std::string Graph;
    pthread_t Thread;
  };
  std::map<uint64_t, Capture> ByStream;
  std::atomic<int> Active{0}; // ByStream's size, read without the lock on every launch.
  std::map<CUgraph, std::string> GraphIds;
  std::map<CUgraphExec, std::string> ExecGraphs;
  std::map<CUgraphNode, unsigned> NodeIndex;
};

CaptureTracker &captures();

} // namespace graphsafe::inject
