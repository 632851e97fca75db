// The time graphcheck itself spends in the program's threads: in CUPTI
// callbacks and in the allocator tracker's block events. Loop timings on a
// shared host move by more than light mode's overhead; this is the part of
// it that graphcheck's own code takes, measured where it runs, and the trace's
// closing statistics carry it (GRAPHCHECK_SELF_TIME=1 also prints it).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace graphsafe::inject {

// TraceWrites overlaps the others: the part of them (and of the shim's
// calls) spent writing the trace.
enum class SelfTimed {
  RuntimeCallbacks,
  DriverCallbacks,
  ResourceCallbacks,
  BlockEvents,
  TraceWrites,
  Count
};

inline std::atomic<uint64_t> &selfTimeNs(SelfTimed Where) {
  static std::atomic<uint64_t> Ns[static_cast<int>(SelfTimed::Count)];
  return Ns[static_cast<int>(Where)];
}

// Adds the time from its construction to its destruction to Where.
class SelfTimer {
public:
  explicit SelfTimer(SelfTimed Where) : Where(Where), Start(std::chrono::steady_clock::now()) {}
  ~SelfTimer() {
    auto Ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now() - Start)
                  .count();
    selfTimeNs(Where).fetch_add(static_cast<uint64_t>(Ns), std::memory_order_relaxed);
  }
  SelfTimer(const SelfTimer &) = delete;
  SelfTimer &operator=(const SelfTimer &) = delete;

private:
  SelfTimed Where;
  std::chrono::steady_clock::time_point Start;
};

} // namespace graphsafe::inject
