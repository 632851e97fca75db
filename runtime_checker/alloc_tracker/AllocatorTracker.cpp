// graphcheck's allocator tracker: the only part of graphcheck that links
// libtorch. It reports which blocks PyTorch's caching allocator has handed
// out and which it takes back, which CUPTI cannot see (a block dies inside a
// cached segment without any CUDA call).
#include "AllocatorSink.h"

#include <c10/cuda/CUDACachingAllocator.h>

#include <cstdio>
#include <exception>

namespace {

namespace Alloc = c10::cuda::CUDACachingAllocator;

template <typename Fn> int guarded(char *Error, size_t ErrorSize, Fn &&F) {
  try {
    F();
    return 0;
  } catch (const std::exception &Ex) {
    std::snprintf(Error, ErrorSize, "%s", Ex.what());
  } catch (...) {
    std::snprintf(Error, ErrorSize, "unknown exception");
  }
  return 1;
}

} // namespace

extern "C" const char *graphcheck_tracker_built_for() { return GRAPHSAFE_TRACKER_BUILT_FOR; }

extern "C" int graphcheck_tracker_attach(GraphcheckBlockSink Sink, char *Error, size_t ErrorSize) {
  return guarded(Error, ErrorSize, [Sink] {
    Alloc::attachAllocatorTraceTracker([Sink](const Alloc::TraceEntry &E) {
      // FREE_REQUESTED is the tensor's death, where the program's line is;
      // FREE_COMPLETED may come much later, after its stream's work.
      if (E.action_ == Alloc::TraceEntry::FREE_REQUESTED)
        Sink(GraphcheckBlockFree, E.addr_, E.size_);
    });
  });
}

extern "C" int graphcheck_tracker_blocks(GraphcheckBlockVisit Visit, void *Context, char *Error,
                                         size_t ErrorSize) {
  return guarded(Error, ErrorSize, [&] {
    for (const auto &Segment : Alloc::snapshot().segments) {
      // A private pool's blocks are graph memory however its segments came to
      // be (CUDA graph trees warm up in the pool before capturing): the
      // injection tells them apart from the program's own tensors.
      int InPool =
          Segment.owner_private_pool_id != decltype(Segment.owner_private_pool_id){0, 0} ? 1 : 0;
      uint64_t Addr = Segment.address;
      for (const auto &B : Segment.blocks) {
        if (B.allocated)
          Visit(Context, Addr, B.size, InPool);
        Addr += B.size;
      }
    }
  });
}
