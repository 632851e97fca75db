#include "EagerWatch.h"

#include "Callbacks.h"
#include "TraceWriter.h"
#include "WriteSnapshots.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <mutex>

namespace graphsafe::inject {

namespace {

// Replays with nothing new before light mode stops watching: a training step
// replays one to a few graphs (forward and backward of each graphed callable).
constexpr unsigned QuietReplays = 8;
// Replays a look-again window lasts.
constexpr unsigned WindowReplays = 4;

struct State {
  std::mutex M;
  bool Watching = true;
  bool NewSinceReplay = false;
  unsigned Quiet = 0;
  uint64_t Replays = 0;
  uint64_t NextLook = 0;
};
State &S = *new State; // Callbacks may run during static destruction.

void setWatching(bool On) {
  S.Watching = On;
  S.Quiet = 0;
  watchEagerLaunches(On);
  trace().writeEvent({{"ev", On ? "eager_observed" : "eager_unobserved"}, {"replays", S.Replays}});
}

} // namespace

void noteEagerTouch(bool New) {
  if (!New)
    return;
  std::lock_guard<std::mutex> L(S.M);
  S.NewSinceReplay = true;
}

void noteReplay() {
  if (verifyMode())
    return;
  std::lock_guard<std::mutex> L(S.M);
  ++S.Replays;
  if (!S.Watching) {
    if (S.Replays >= S.NextLook) {
      setWatching(true);
      S.Quiet = QuietReplays - WindowReplays; // A window, not a fresh learning phase.
    }
    return;
  }
  S.Quiet = S.NewSinceReplay ? 0 : S.Quiet + 1;
  S.NewSinceReplay = false;
  if (S.Quiet < QuietReplays)
    return;
  setWatching(false);
  S.NextLook = S.Replays * 2;
}

void watchEagerAgain() {
  if (verifyMode())
    return;
  std::lock_guard<std::mutex> L(S.M);
  S.NewSinceReplay = false;
  if (S.Watching)
    S.Quiet = 0;
  else
    setWatching(true);
}

} // namespace graphsafe::inject
