// PyTorch's caching-allocator blocks that live graphs point into, and their
// frees. CUPTI sees only whole cached segments; a tensor's death inside one (a
// static input rebound, a .grad set to None) is visible only to the allocator
// tracker.
//
// Cost model: the blocks a graph points into are read from the allocator's
// snapshot when the graph is instantiated or updated (rare). After that only
// frees reach graphcheck, each one lookup in the small map of watched blocks
// under a lock; allocations never do. Only a free that hits a watched block
// writes to the trace and takes a host stack.
#pragma once

#include "AllocatorSink.h"

#include <cuda.h>

#include <cstdint>
#include <vector>

namespace graphsafe::inject {

// Where the blocks allocated now are read from (the tracker's snapshot); none
// until the tracker is attached, and then no block is watched.
void setLiveBlockSource(GraphcheckTrackerLiveBlocks Source);

// The sink the tracker calls (GraphcheckBlockSink): a block was freed.
void onBlockEvent(int Event, uint64_t Addr, uint64_t Size);

// Block frees the tracker delivered (every free of the program), for the
// trace's closing statistics.
uint64_t blockFreeCount();

// Whether P lies in a live block that some live graph points into.
bool inWatchedBlock(uint64_t P);

// The Python shim names the user's line around calls that free tensors
// (zero_grad), since PyTorch frees them with the GIL released; null clears.
void setPythonFreeSite(const char *Frame);

// An exec now points at these device pointers (outside graph-owned memory):
// writes a `block` event for each live block they fall in that is not watched
// yet, and watches those blocks' frees. Replaces what Exec watched.
void watchExecBlocks(CUgraphExec Exec, const std::vector<uint64_t> &Pointers);
// The exec is gone; frees of what only it pointed at no longer matter.
void unwatchExecBlocks(CUgraphExec Exec);

} // namespace graphsafe::inject
