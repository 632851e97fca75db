#include "MemoryMap.h"

namespace graphsafe::inject {

MemoryMap &memory() {
  // Never destroyed: CUDA calls made while the process exits still arrive.
  static auto *Map = new MemoryMap;
  return *Map;
}

void MemoryMap::add(uint64_t Addr, uint64_t Size, bool GraphOwned) {
  std::lock_guard<std::mutex> L(M);
  // A reused address replaces the old entry (the free was not seen).
  if (auto It = Live.find(Addr); It != Live.end())
    GraphOwnedCount -= It->second.GraphOwned;
  Live[Addr] = Entry{Size, GraphOwned};
  GraphOwnedCount += GraphOwned;
}

bool MemoryMap::remove(uint64_t Addr) {
  std::lock_guard<std::mutex> L(M);
  auto It = Live.find(Addr);
  if (It == Live.end())
    return false;
  GraphOwnedCount -= It->second.GraphOwned;
  Live.erase(It);
  return true;
}

std::vector<uint64_t> MemoryMap::removeRange(uint64_t Addr, uint64_t Size) {
  std::lock_guard<std::mutex> L(M);
  std::vector<uint64_t> Out;
  for (auto It = Live.lower_bound(Addr); It != Live.end() && It->first < Addr + Size;) {
    Out.push_back(It->first);
    GraphOwnedCount -= It->second.GraphOwned;
    It = Live.erase(It);
  }
  return Out;
}

bool MemoryMap::anyGraphOwned() const {
  std::lock_guard<std::mutex> L(M);
  return GraphOwnedCount > 0;
}

std::optional<Extent> MemoryMap::find(uint64_t P, bool GraphOwnedOnly) const {
  std::lock_guard<std::mutex> L(M);
  auto It = Live.upper_bound(P);
  if (It == Live.begin())
    return std::nullopt;
  --It;
  if (P >= It->first + It->second.Size || (GraphOwnedOnly && !It->second.GraphOwned))
    return std::nullopt;
  return Extent{It->first, It->second.Size};
}

} // namespace graphsafe::inject
