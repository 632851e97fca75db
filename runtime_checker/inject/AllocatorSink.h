// The C interface between the injection library and graphcheck's allocator
// tracker (libgraphcheck_alloc.so), which is built against one libtorch and
// loaded into the program only once that libtorch is there. Plain C, so a
// tracker built for another PyTorch fails to load instead of corrupting
// anything.
#pragma once

#include <stddef.h>
#include <stdint.h>

extern "C" {

enum GraphcheckBlockEvent { GraphcheckBlockFree = 1 };

// Called under the caching allocator's lock (PyTorch's rule for trace
// trackers): it must not allocate device memory or wait for the GIL.
typedef void (*GraphcheckBlockSink)(int Event, uint64_t Addr, uint64_t Size);

// The libc10_cuda.so the tracker was built against: "PATH\nBUILD-ID" (the
// build id may be empty where the build could not read it).
typedef const char *(*GraphcheckTrackerBuiltFor)(void);

// Reports every later block free (the tensor's death) to Sink. Allocations
// are not reported: the blocks that matter are asked for when a graph is
// instantiated, so a training loop's every allocation stays off graphcheck's
// path. Returns 0 on success, else writes why into Error.
typedef int (*GraphcheckTrackerAttach)(GraphcheckBlockSink Sink, char *Error, size_t ErrorSize);

// InPool is 1 for a block of a private pool (graph memory: a captured graph's
// output or an intermediate handed from one graph to the next), else 0.
typedef void (*GraphcheckBlockVisit)(void *Context, uint64_t Addr, uint64_t Size, int InPool);
// Calls Visit for every block allocated now, from the allocator's snapshot.
// Returns 0 on success, else writes why into Error. Must not be called with a
// lock held that the Sink takes: it takes the allocator's lock.
typedef int (*GraphcheckTrackerLiveBlocks)(GraphcheckBlockVisit Visit, void *Context, char *Error,
                                           size_t ErrorSize);
}
