// The analysis runs on parallelFor's workers; their stacks must hold the deep
// recursion that generated code causes in Clang and in graphlint's walks.
#include "ParallelFor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>

namespace {

// About 1 KiB of stack per level, kept from being optimised away.
unsigned recurse(unsigned Depth) {
  volatile char Frame[1024];
  std::memset(const_cast<char *>(Frame), static_cast<int>(Depth), sizeof Frame);
  return Depth == 0 ? Frame[0] : Frame[Depth % sizeof Frame] + recurse(Depth - 1);
}

TEST(ParallelFor, EveryIndexOnceOnAnyNumberOfJobs) {
  for (unsigned Jobs : {1u, 2u, 7u}) {
    std::vector<std::atomic<int>> Seen(100);
    graphsafe::lint::parallelFor(Seen.size(), Jobs, [&](size_t I) { ++Seen[I]; });
    for (auto &S : Seen)
      EXPECT_EQ(S.load(), 1);
  }
}

// 64 MiB of recursion: past the 8 MiB a default thread (or the main thread
// under the usual `ulimit -s`) has, which crashed on a 100,000-term expression.
TEST(ParallelFor, WorkersHaveRoomForDeepRecursion) {
  std::atomic<unsigned> Sum{0};
  graphsafe::lint::parallelFor(2, 2, [&](size_t) { Sum += recurse(64 * 1024) & 1; });
  EXPECT_LE(Sum.load(), 2u);
}

} // namespace
