// Walks an instantiated graph's nodes once, at instantiate, and finds the
// device pointers each kernel node was captured with.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <functional>
#include <set>
#include <string>

namespace graphsafe::inject {

// True when P lies in a device allocation the process made.
using IsDevicePointer = std::function<bool(uint64_t)>;

// Adds to Out every 8-byte word of the kernel's parameters that IsDevice accepts.
void scanKernelParams(CUfunction F, void **Params, std::set<uint64_t> &Out,
                      const IsDevicePointer &IsDevice);

// Returns the graph_exec event line for this graph.
std::string describeGraphExec(CUgraph Graph, uint64_t GraphId, CUgraphExec Exec,
                              const IsDevicePointer &IsDevice);

} // namespace graphsafe::inject
