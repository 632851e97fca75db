// Large structures graphlint builds once and drops just before it exits (a
// tree's summaries, its parsed program) are handed over here instead of
// being destroyed: freeing them one allocation at a time cost a warm run on
// Megatron-LM about a quarter of its second, and the kernel takes the memory
// back at exit anyway (clang's -disable-free, for the same reason). Only
// graphlint's own main turns this on; library callers (tests, fuzzers) free
// as usual. What is kept stays reachable, so leak checkers stay quiet.
#pragma once

#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

namespace graphsafe::lint {

namespace detail {
struct Kept {
  bool On = false;
  std::mutex M;
  std::vector<std::shared_ptr<void>> Values;
};
inline Kept &kept() {
  static auto *K = new Kept; // Never destroyed: that is its point.
  return *K;
}
} // namespace detail

inline void keepUntilExit(bool On) { detail::kept().On = On; }

// Destroys Value now, or keeps it until the process ends.
template <class T> void dropAtExit(T &&Value) {
  static_assert(!std::is_lvalue_reference_v<T>, "hand the value over with std::move");
  detail::Kept &K = detail::kept();
  if (!K.On)
    return (void)std::decay_t<T>(std::move(Value));
  auto Held = std::make_shared<std::decay_t<T>>(std::move(Value));
  std::lock_guard<std::mutex> L(K.M);
  K.Values.push_back(std::move(Held));
}

} // namespace graphsafe::lint
