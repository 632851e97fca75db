// Verify mode: learns what a launch really wrote by copying the memory it may
// write (the graph-owned ranges its pointers reach) before and after it, and
// comparing. It synchronizes the device around the launch, so it is for
// checking runs, not for whole training runs; light mode uses it only for the
// first eager kernels it sees writing graph memory.
// Writes that store the value already there are invisible to it.
#pragma once

#include "MemoryMap.h"

#include <cstdint>
#include <vector>

namespace graphsafe::inject {

class WriteSnapshot {
public:
  // Copies the graph-owned memory from each pointer to the end of its
  // allocation, after the device finished all earlier work. False when
  // nothing could be copied.
  bool take(const std::vector<uint64_t> &Pointers);
  // Waits for the launch, copies again and returns the ranges that changed.
  std::vector<Extent> changed();

private:
  struct Copy {
    Extent Range;
    std::vector<unsigned char> Before;
  };
  std::vector<Copy> Copies;
};

// Whether `graphcheck run --mode verify` asked for write snapshots.
bool verifyMode();

} // namespace graphsafe::inject
