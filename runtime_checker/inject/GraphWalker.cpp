#include "GraphWalker.h"

#include "CaptureTracker.h"

#include <set>

namespace graphsafe::inject {

NodeInfo describeKernel(unsigned Index, const CUDA_KERNEL_NODE_PARAMS &P,
                        const PointerFilter &IsDevice) {
  NodeInfo N{Index, "?", {}};
  CUfunction F = P.func;
  if (!F && P.kern)
    cuKernelGetFunction(&F, P.kern); // Only a CUkernel was set (library-loaded kernels).
  const char *Name = nullptr;
  if (F && cuFuncGetName(&Name, F) == CUDA_SUCCESS && Name) {
    N.Kernel = Name;
    rememberFunction(F, Name);
  }
  std::set<uint64_t> Ptrs;
  scanKernelParams(F, P.kernelParams, Ptrs, IsDevice);
  // `extra`-style launches pack every parameter into one buffer.
  if (!P.kernelParams && P.extra) {
    void *Buffer = nullptr;
    size_t Size = 0;
    for (void **E = P.extra; *E != CU_LAUNCH_PARAM_END; E += 2) {
      if (*E == CU_LAUNCH_PARAM_BUFFER_POINTER)
        Buffer = E[1];
      else if (*E == CU_LAUNCH_PARAM_BUFFER_SIZE)
        Size = *static_cast<size_t *>(E[1]);
    }
    // One parameter as big as the buffer: the same word scan.
    scanKernelParams(std::vector<size_t>{Size}, &Buffer, Ptrs, IsDevice);
  }
  N.Pointers.assign(Ptrs.begin(), Ptrs.end());
  return N;
}

GraphLayout walkGraph(CUgraph Graph, const PointerFilter &IsDevice) {
  GraphLayout Out;
  size_t N = 0;
  cuGraphGetNodes(Graph, nullptr, &N);
  std::vector<CUgraphNode> Nodes(N);
  if (N)
    cuGraphGetNodes(Graph, Nodes.data(), &N);
  // Allocation nodes first: kernel pointers into their memory must resolve.
  for (size_t I = 0; I < N; ++I) {
    CUgraphNodeType T;
    CUDA_MEM_ALLOC_NODE_PARAMS A{};
    if (cuGraphNodeGetType(Nodes[I], &T) == CUDA_SUCCESS && T == CU_GRAPH_NODE_TYPE_MEM_ALLOC &&
        cuGraphMemAllocNodeGetParams(Nodes[I], &A) == CUDA_SUCCESS)
      Out.MemAllocs.push_back({A.dptr, A.bytesize});
  }
  auto Known = [&](uint64_t P) {
    if (IsDevice(P))
      return true;
    for (const Extent &E : Out.MemAllocs)
      if (P >= E.Begin && P < E.Begin + E.Size)
        return true;
    return false;
  };
  for (size_t I = 0; I < N; ++I) {
    CUgraphNodeType T;
    if (cuGraphNodeGetType(Nodes[I], &T) != CUDA_SUCCESS)
      continue;
    captures().setNodeIndex(Nodes[I], I);
    if (T == CU_GRAPH_NODE_TYPE_KERNEL) {
      CUDA_KERNEL_NODE_PARAMS P{};
      if (cuGraphKernelNodeGetParams(Nodes[I], &P) == CUDA_SUCCESS)
        Out.Nodes.push_back(describeKernel(I, P, Known));
    } else if (T == CU_GRAPH_NODE_TYPE_MEMSET) {
      CUDA_MEMSET_NODE_PARAMS P{};
      if (cuGraphMemsetNodeGetParams(Nodes[I], &P) == CUDA_SUCCESS)
        Out.Nodes.push_back({static_cast<unsigned>(I), "memset", {P.dst}});
    } else if (T == CU_GRAPH_NODE_TYPE_MEMCPY) {
      CUDA_MEMCPY3D P{};
      if (cuGraphMemcpyNodeGetParams(Nodes[I], &P) == CUDA_SUCCESS) {
        NodeInfo Copy{static_cast<unsigned>(I), "memcpy", {}};
        for (uint64_t V : {P.dstDevice, P.srcDevice})
          if (V)
            Copy.Pointers.push_back(V);
        Out.Nodes.push_back(Copy);
      }
    }
  }
  return Out;
}

} // namespace graphsafe::inject
