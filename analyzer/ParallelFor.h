// Runs a job per index on a few threads: the one scheduling loop both front
// ends share.
#pragma once

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <vector>

namespace graphsafe::lint {

// Every worker gets this much stack (address space; only the pages used are
// committed). Clang's semantic checks and the analysis walks recurse once per
// nesting level, and generated code (a sum of 100,000 terms) nests past what
// the default 8 MiB holds; clang's own driver survives such files.
constexpr size_t WorkerStackBytes = size_t{256} << 20;

// The cores this process may run on (its affinity mask, which taskset and
// container runtimes narrow), at least one: the default number of jobs.
inline unsigned availableCores() {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  if (sched_getaffinity(0, sizeof(Set), &Set) != 0)
    return 1;
  return static_cast<unsigned>(std::max(1, CPU_COUNT(&Set)));
}

// Calls Work(I) for every I in [0, Count), each once, on up to Jobs threads;
// indices are taken in order, so the first items start first.
template <typename Fn> void parallelFor(size_t Count, unsigned Jobs, Fn &&Work) {
  std::atomic<size_t> Next{0};
  std::function<void()> Worker = [&] {
    for (size_t I = Next++; I < Count; I = Next++)
      Work(I);
  };
  unsigned N = static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(Jobs, Count)));
  std::vector<pthread_t> Pool;
  for (unsigned J = 0; J < N; ++J) {
    pthread_attr_t Attr;
    pthread_t T;
    bool Started = pthread_attr_init(&Attr) == 0 &&
                   pthread_attr_setstacksize(&Attr, WorkerStackBytes) == 0 &&
                   pthread_create(
                       &T, &Attr,
                       [](void *W) -> void * {
                         (*static_cast<std::function<void()> *>(W))();
                         return nullptr;
                       },
                       &Worker) == 0;
    pthread_attr_destroy(&Attr);
    if (Started)
      Pool.push_back(T);
  }
  // Where threads cannot be made (a process limit), the caller does the work.
  if (Pool.empty())
    Worker();
  for (pthread_t T : Pool)
    pthread_join(T, nullptr);
}

} // namespace graphsafe::lint
