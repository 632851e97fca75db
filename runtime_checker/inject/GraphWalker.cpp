#include "GraphWalker.h"
#include "Hex.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <set>
#include <vector>

namespace graphsafe::inject {

namespace {

// ATen and cuBLAS pass structs by value (hundreds of bytes), so every
// 8-byte-aligned word of every parameter is a candidate pointer, kept only
// if it falls inside a live device allocation.
} // namespace

void scanKernelParams(CUfunction F, void **Params, std::set<uint64_t> &Out,
                      const IsDevicePointer &IsDevice) {
  if (!F || !Params)
    return;
  for (size_t I = 0;; ++I) {
    size_t Offset = 0, Size = 0;
    if (cuFuncGetParamInfo(F, I, &Offset, &Size) != CUDA_SUCCESS)
      break;
    const auto *Bytes = static_cast<const unsigned char *>(Params[I]);
    for (size_t B = 0; B + 8 <= Size; B += 8) {
      uint64_t V;
      std::memcpy(&V, Bytes + B, 8);
      if (V && IsDevice(V))
        Out.insert(V);
    }
  }
}

std::string describeGraphExec(CUgraph Graph, uint64_t GraphId, CUgraphExec Exec,
                              const IsDevicePointer &IsDevice) {
  size_t N = 0;
  cuGraphGetNodes(Graph, nullptr, &N);
  std::vector<CUgraphNode> Nodes(N);
  if (N)
    cuGraphGetNodes(Graph, Nodes.data(), &N);
  nlohmann::json J = {{"ev", "graph_exec"},
                      {"graph", "g" + std::to_string(GraphId)},
                      {"exec", rt::hexAddress(reinterpret_cast<uint64_t>(Exec))},
                      {"nodes", nlohmann::json::array()}};
  for (size_t I = 0; I < N; ++I) {
    CUgraphNodeType T;
    if (cuGraphNodeGetType(Nodes[I], &T) != CUDA_SUCCESS)
      continue;
    nlohmann::json Node = {{"id", std::to_string(I)}, {"ptrs", nlohmann::json::array()}};
    std::set<uint64_t> Ptrs;
    if (T == CU_GRAPH_NODE_TYPE_KERNEL) {
      CUDA_KERNEL_NODE_PARAMS P{};
      if (cuGraphKernelNodeGetParams(Nodes[I], &P) != CUDA_SUCCESS)
        continue;
      CUfunction F = P.func;
      if (!F && P.kern)
        cuKernelGetFunction(&F, P.kern);
      const char *Name = nullptr;
      if (F)
        cuFuncGetName(&Name, F);
      Node["kernel"] = Name ? Name : "?";
      scanKernelParams(F, P.kernelParams, Ptrs, IsDevice);
    } else if (T == CU_GRAPH_NODE_TYPE_MEMSET) {
      CUDA_MEMSET_NODE_PARAMS P{};
      if (cuGraphMemsetNodeGetParams(Nodes[I], &P) == CUDA_SUCCESS) {
        Node["kernel"] = "memset";
        Ptrs.insert(P.dst);
      }
    } else if (T == CU_GRAPH_NODE_TYPE_MEMCPY) {
      CUDA_MEMCPY3D P{};
      if (cuGraphMemcpyNodeGetParams(Nodes[I], &P) == CUDA_SUCCESS) {
        Node["kernel"] = "memcpy";
        if (P.dstDevice)
          Ptrs.insert(P.dstDevice);
        if (P.srcDevice)
          Ptrs.insert(P.srcDevice);
      }
    } else {
      continue;
    }
    for (uint64_t V : Ptrs)
      Node["ptrs"].push_back(rt::hexAddress(V));
    J["nodes"].push_back(Node);
  }
  return J.dump();
}

} // namespace graphsafe::inject
