#include "WriteSnapshots.h"

#include <cuda.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace graphsafe::inject {

namespace {

// A snapshot bigger than this is skipped: the launch keeps its pointer-based
// touches rather than stalling the program on huge copies.
constexpr uint64_t MaxSnapshotBytes = 1ull << 30;
// Changed words closer than this are one write.
constexpr uint64_t MergeGap = 64;

} // namespace

bool verifyMode() {
  static bool On = [] {
    const char *M = std::getenv("GRAPHCHECK_MODE");
    return M && std::strcmp(M, "verify") == 0;
  }();
  return On;
}

bool WriteSnapshot::take(const std::vector<uint64_t> &Pointers) {
  Copies.clear();
  std::vector<Extent> Ranges;
  for (uint64_t P : Pointers)
    if (auto A = memory().graphOwnedExtentOf(P))
      Ranges.push_back({P, A->Begin + A->Size - P});
  std::sort(Ranges.begin(), Ranges.end(),
            [](const Extent &A, const Extent &B) { return A.Begin < B.Begin; });
  uint64_t Total = 0;
  for (const Extent &R : Ranges) {
    if (!Copies.empty() && R.Begin < Copies.back().Range.Begin + Copies.back().Range.Size)
      continue; // Already covered: ranges run to the end of their allocation.
    Total += R.Size;
    if (Total > MaxSnapshotBytes)
      break;
    Copies.push_back({R, {}});
  }
  if (Copies.empty() || cuCtxSynchronize() != CUDA_SUCCESS)
    return Copies.clear(), false;
  for (Copy &C : Copies) {
    C.Before.resize(C.Range.Size);
    if (cuMemcpyDtoH(C.Before.data(), C.Range.Begin, C.Range.Size) != CUDA_SUCCESS)
      C.Before.clear();
  }
  return true;
}

std::vector<Extent> WriteSnapshot::changed() {
  std::vector<Extent> Out;
  if (Copies.empty() || cuCtxSynchronize() != CUDA_SUCCESS)
    return Out;
  std::vector<unsigned char> After;
  for (const Copy &C : Copies) {
    if (C.Before.empty())
      continue;
    After.resize(C.Range.Size);
    if (cuMemcpyDtoH(After.data(), C.Range.Begin, C.Range.Size) != CUDA_SUCCESS)
      continue;
    for (uint64_t B = 0; B < C.Range.Size; B += 8) {
      uint64_t Len = std::min<uint64_t>(8, C.Range.Size - B);
      if (std::memcmp(&C.Before[B], &After[B], Len) == 0)
        continue;
      uint64_t At = C.Range.Begin + B;
      if (!Out.empty() && At <= Out.back().Begin + Out.back().Size + MergeGap)
        Out.back().Size = At + Len - Out.back().Begin;
      else
        Out.push_back({At, Len});
    }
  }
  Copies.clear();
  return Out;
}

} // namespace graphsafe::inject
