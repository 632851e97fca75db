// Runs a job per index on a few threads, the caller's included: the one
// scheduling loop both front ends share.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace graphsafe::lint {

// Calls Work(I) for every I in [0, Count), each once, on up to Jobs threads;
// indices are taken in order, so the first items start first.
template <typename Fn> void parallelFor(size_t Count, unsigned Jobs, Fn &&Work) {
  std::atomic<size_t> Next{0};
  auto Worker = [&] {
    for (size_t I = Next++; I < Count; I = Next++)
      Work(I);
  };
  unsigned N = static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(Jobs, Count)));
  std::vector<std::thread> Pool;
  for (unsigned J = 1; J < N; ++J)
    Pool.emplace_back(Worker);
  Worker();
  for (auto &T : Pool)
    T.join();
}

} // namespace graphsafe::lint
