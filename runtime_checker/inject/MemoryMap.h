// The device allocations the program holds, and which of them a graph owns
// (made while a capture was under way). Every callback thread reads it, so it
// locks; lookups are one ordered-map search.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace graphsafe::inject {

struct Extent {
  uint64_t Begin = 0, Size = 0;
};

class MemoryMap {
public:
  void add(uint64_t Addr, uint64_t Size, bool GraphOwned);
  // Removes the allocation starting at Addr; false when there is none.
  bool remove(uint64_t Addr);
  // Removes every allocation inside [Addr, Addr + Size) (an unmapped range);
  // returns their start addresses.
  std::vector<uint64_t> removeRange(uint64_t Addr, uint64_t Size);

  bool isDevice(uint64_t P) const { return find(P, false).has_value(); }
  // Called for every 8-byte word of every eager kernel's parameters: words
  // outside the hull of graph-owned memory (sizes, strides, other memory)
  // are turned away without the lock.
  bool isGraphOwned(uint64_t P) const {
    return P >= OwnedLo.load(std::memory_order_relaxed) &&
           P < OwnedHi.load(std::memory_order_relaxed) && find(P, true).has_value();
  }
  std::optional<Extent> extentOf(uint64_t P) const { return find(P, false); }
  std::optional<Extent> graphOwnedExtentOf(uint64_t P) const { return find(P, true); }
  bool anyGraphOwned() const { return OwnedHi.load(std::memory_order_relaxed) != 0; }

private:
  std::optional<Extent> find(uint64_t P, bool GraphOwnedOnly) const;
  void updateOwnedHull(); // With M held.

  struct Entry {
    uint64_t Size;
    bool GraphOwned;
  };
  mutable std::mutex M;
  std::map<uint64_t, Entry> Live;
  std::atomic<uint64_t> OwnedLo{0}, OwnedHi{0}; // Hull of graph-owned entries; empty as 0, 0.
};

MemoryMap &memory();

// Moves on whenever what graph memory is may have changed: an allocation made
// or freed, a block a graph points into watched or let go. The Python shim
// asks again about an address it already asked about only after it moved.
uint64_t graphMemoryEpoch();
void graphMemoryChanged();

} // namespace graphsafe::inject
