// PyTorch's caching-allocator blocks, as the allocator tracker reports them,
// and which of them live graphs point into. CUPTI sees only whole cached
// segments; a tensor's death inside one (a static input rebound, a .grad set
// to None) is visible only here.
//
// Cost model: every block allocation and free of the program passes through
// onBlockEvent (one ordered-map update under a lock). Only a free that hits a
// block some live graph points into writes to the trace and takes a host
// stack, so the common path stays cheap.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <vector>

namespace graphsafe::inject {

// The sink the tracker calls (GraphcheckBlockSink).
void onBlockEvent(int Event, uint64_t Addr, uint64_t Size);

// Block events the tracker delivered (every alloc and free of the program),
// for the trace's closing statistics.
uint64_t blockEventCount();

// Whether P lies in a live block that some live graph points into.
bool inWatchedBlock(uint64_t P);

// The Python shim names the user's line around calls that free tensors
// (zero_grad), since PyTorch frees them with the GIL released; null clears.
void setPythonFreeSite(const char *Frame);

// An exec now points at these device pointers (outside graph-owned memory):
// writes a `block` event for each live block they fall in that the trace does
// not know yet, and watches those blocks' frees. Replaces what Exec watched.
void watchExecBlocks(CUgraphExec Exec, const std::vector<uint64_t> &Pointers);
// The exec is gone; frees of what only it pointed at no longer matter.
void unwatchExecBlocks(CUgraphExec Exec);

} // namespace graphsafe::inject
