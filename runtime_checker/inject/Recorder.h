// Turns the CUDA calls the runtime and driver callbacks decode into trace
// events. Both API levels land here, so a program that captures through the
// driver is observed exactly like one that uses the runtime.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace graphsafe::inject {

void recordAlloc(uint64_t Addr, uint64_t Size);
void recordFree(uint64_t Addr);
// cudaFreeAsync/cuMemFreeAsync: while capturing, a free node of the graph,
// which releases nothing now.
void recordStreamOrderedFree(uint64_t Addr);
void recordUnmap(uint64_t Addr, uint64_t Size);
void recordCaptureBegin(uint64_t Stream);
void recordCaptureEnd(uint64_t Stream, CUgraph Result, const char *Api, bool Unjoined);
void recordExecCreated(CUgraph Graph, CUgraphExec Exec);
// cuGraphExecUpdate: the exec now runs Graph's nodes and parameters.
void recordExecUpdate(CUgraphExec Exec, CUgraph Graph);
void recordKernelNodeUpdate(CUgraphExec Exec, CUgraphNode Node, const CUDA_KERNEL_NODE_PARAMS &P);
void recordExecDestroy(CUgraphExec Exec);

// Around a graph launch: the enter side reports the launch (and in verify
// mode snapshots what it may write), the exit side learns its writes.
// Stream (enter side) is the handle the launch names; PerThread when the call was a
// per-thread-default-stream variant (_ptsz), where handle 0 means that stream.
void recordGraphLaunchEnter(CUgraphExec Exec, uint64_t Stream, bool PerThread);
void recordGraphLaunchExit(CUgraphExec Exec);

// What orders work across streams, recorded once two graph execs exist (only
// graphs replayed on different streams need it): an event recorded on a
// stream, a stream waiting on an event, the host waiting on a stream, an
// event or the whole device (HostSyncDevice).
void recordEventRecord(uint64_t Event, uint64_t Stream, bool PerThread);
void recordStreamWait(uint64_t Stream, uint64_t Event, bool PerThread);
void recordHostSyncStream(uint64_t Stream, bool PerThread);
void recordHostSyncEvent(uint64_t Event);
void recordHostSyncDevice();

// Whether eager launches can matter now: some memory is graph-owned and no
// capture is under way (a launch being captured does not run). Callers ask
// before resolving a launch's kernel; the record functions assume it.
bool eagerLaunchMatters();

// Around an eager kernel launch (not one being captured). A kernel known
// only by name and parameter sizes (no CUfunction) passes those, and a key
// that stands for it (its stub); a null Name means Key is the CUfunction.
void recordEagerLaunchEnter(CUfunction F, void **Params);
void recordEagerLaunchEnter(const char *Name, const std::vector<size_t> &Sizes, const void *Key,
                            void **Params);
void recordEagerLaunchExit();

// A synchronizing call made on a capturing thread; returns whether it was.
bool recordSyncIfCapturing(const char *Api);
// A call that failed with a stream-capture error.
void recordCaptureError(const char *Api, int Error);

// The libtorch adapter's poll, run before each graph launch (so the grads and
// tensors it watches are reported before the replay that could overwrite
// them) and before each capture ends (so grads installed while capturing
// count as the graph's own, as in whole-network capture).
using LaunchHook = void (*)();
void setLaunchHook(LaunchHook Hook);

} // namespace graphsafe::inject
