// The event stream graphcheck's hazard engine consumes. The CUPTI injection
// library and the Python shim produce it; traces of it (JSON Lines, one event
// per line) are the engine's regression fixtures.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace graphsafe::rt {

struct Range {
  uint64_t Begin = 0, End = 0; // [Begin, End)
  bool overlaps(const Range &O) const { return Begin < O.End && O.Begin < End; }
  bool contains(uint64_t P) const { return P >= Begin && P < End; }
};

struct Node {
  std::string Id;
  std::string Kernel;
  std::vector<uint64_t> Pointers; // Device pointers found in the node's parameters.
  std::vector<Range> Writes;      // Exact write ranges, when verify mode learned them.
};

struct Event {
  enum class Kind {
    Alloc,         // Addr, Size, Alloc id; Graph set when allocated under capture
    Free,          // Addr
    CaptureBegin,  // Graph, Stream
    CaptureEnd,    // Graph
    GraphExec,     // Graph, Exec, Nodes
    NodeUpdate,    // Exec, Nodes: new parameters for these nodes of the exec
    ExecWrites,    // Exec, Nodes (with Writes): what a replay was seen to write (verify mode)
    Launch,        // Exec, Stream (when known)
    EagerKernel,   // Kernel, Pointers (Writes when known)
    EagerGap,      // Eager launches go unwatched from here until the next eager_observed
    TensorOut,     // Tensor, Addr, Size, Exec: handed out by the last replay of Exec
    TensorDead,    // Tensor
    GradInstalled, // Param, Addr, Size: param.grad now is this storage
    GradReleased,  // Param (Addr, Size: the storage it let go of, when known)
    Block,         // Addr, Size: a caching-allocator block, live now, that a graph points into
                   // (Pool, Exec: a private pool's block, announced by that exec)
    BlockFree,     // Addr, Size, Stack: that block was freed (the tensor died or was rebound)
    ExecDestroy,   // Exec: the executable graph is gone; it can no longer replay
    ApiInCapture,  // Api, ApiKind (sync|legacy-stream|alloc|unjoined)
    Meta,          // Api: checker_start, checker_error (Name: message) or end
    // Ordering between streams, recorded once a graph exec exists:
    EventRecord, // CudaEvent, Stream: the event now marks the stream's work so far
    StreamWait,  // Stream, CudaEvent: later work on Stream waits for what the event marks
    HostSync,    // Stream, or CudaEvent, or neither (the whole device): the host waited for it
  };
  Kind K = Kind::Alloc;
  uint64_t Seq = 0; // Position in the stream, set by the reader.
  uint64_t Addr = 0, Size = 0;
  bool Pool = false; // Block and BlockFree: a block of a private pool (graph memory).
  std::string Alloc, Graph, Exec, Stream, Kernel, Tensor, Param, Api, ApiKind, Name, CudaEvent;
  std::vector<Node> Nodes;
  std::vector<uint64_t> Pointers;
  std::vector<Range> Writes;
  std::vector<std::string> Stack; // Host stack, innermost first ("file:line func").
  // A launch's own host stack (recorded once replays on several streams can
  // race); Stack stays what the rules before it read (the shim's sites).
  std::vector<std::string> Site;
};

struct TraceError {
  unsigned Line;
  std::string Message;
};

// Reads a JSON Lines trace; malformed lines are reported and skipped.
std::vector<Event> readTrace(std::istream &In, std::vector<TraceError> &Errors);
void writeEvent(std::ostream &OS, const Event &E);

} // namespace graphsafe::rt
