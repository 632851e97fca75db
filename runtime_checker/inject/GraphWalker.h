// Walks an instantiated graph's nodes once, at instantiate, and finds the
// device pointers each kernel, memset and memcpy node was captured with, and
// the memory its allocation nodes own.
#pragma once

#include "KernelParams.h"
#include "MemoryMap.h"

#include <cuda.h>

#include <string>
#include <vector>

namespace graphsafe::inject {

struct NodeInfo {
  unsigned Index;
  std::string Kernel;
  std::vector<uint64_t> Pointers;
};

struct GraphLayout {
  std::vector<NodeInfo> Nodes;
  std::vector<Extent> MemAllocs; // Graph memory nodes (cudaMallocAsync under capture).
};

GraphLayout walkGraph(CUgraph Graph, const PointerFilter &IsDevice);

// The pointers of one kernel node's parameters (for parameter updates).
NodeInfo describeKernel(unsigned Index, const CUDA_KERNEL_NODE_PARAMS &P,
                        const PointerFilter &IsDevice);

} // namespace graphsafe::inject
