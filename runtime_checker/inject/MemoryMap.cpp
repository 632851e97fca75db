#include "MemoryMap.h"

#include <algorithm>

namespace graphsafe::inject {

MemoryMap &memory() {
  // Never destroyed: CUDA calls made while the process exits still arrive.
  static auto *Map = new MemoryMap;
  return *Map;
}

namespace {
std::atomic<uint64_t> Epoch{0};
} // namespace

uint64_t graphMemoryEpoch() { return Epoch.load(std::memory_order_acquire); }
void graphMemoryChanged() { Epoch.fetch_add(1, std::memory_order_acq_rel); }

void MemoryMap::add(uint64_t Addr, uint64_t Size, bool GraphOwned) {
  std::lock_guard<std::mutex> L(M);
  graphMemoryChanged();
  // A reused address replaces the old entry (the free was not seen).
  auto [It, New] = Live.insert_or_assign(Addr, Entry{Size, GraphOwned});
  if (GraphOwned || !New)
    updateOwnedHull();
}

void MemoryMap::updateOwnedHull() {
  uint64_t Lo = UINT64_MAX, Hi = 0;
  for (const auto &[Begin, E] : Live)
    if (E.GraphOwned) {
      Lo = std::min(Lo, Begin);
      Hi = std::max(Hi, Begin + E.Size);
    }
  OwnedLo.store(Hi ? Lo : 0, std::memory_order_relaxed);
  OwnedHi.store(Hi, std::memory_order_relaxed);
}

bool MemoryMap::remove(uint64_t Addr) {
  std::lock_guard<std::mutex> L(M);
  auto It = Live.find(Addr);
  if (It == Live.end())
    return false;
  graphMemoryChanged();
  bool Owned = It->second.GraphOwned;
  Live.erase(It);
  if (Owned)
    updateOwnedHull();
  return true;
}

std::vector<uint64_t> MemoryMap::removeRange(uint64_t Addr, uint64_t Size) {
  std::lock_guard<std::mutex> L(M);
  std::vector<uint64_t> Out;
  for (auto It = Live.lower_bound(Addr); It != Live.end() && It->first < Addr + Size;) {
    Out.push_back(It->first);
    It = Live.erase(It);
  }
  if (!Out.empty()) {
    graphMemoryChanged();
    updateOwnedHull();
  }
  return Out;
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
