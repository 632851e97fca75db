// Which GPU work is ordered before which, across streams: a vector clock per
// stream, per recorded CUDA event and for the host, advanced by launches and
// joined by event records, stream waits and host synchronizations. Two
// launches on different streams with neither ordered before the other may
// run at the same time.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace graphsafe::rt {

class StreamOrder {
public:
  // Where a launch sits: its stream and that stream's tick at the launch.
  struct Stamp {
    std::string Stream;
    uint64_t Tick = 0;
  };

  // Work enqueued on Stream now; it follows everything the host has waited for.
  Stamp launch(const std::string &Stream);
  void record(const std::string &Event, const std::string &Stream);
  void wait(const std::string &Stream, const std::string &Event);
  void hostWaitsStream(const std::string &Stream);
  void hostWaitsEvent(const std::string &Event);
  void hostWaitsDevice();
  // Whether the work at Earlier is ordered before work enqueued on Stream now.
  bool orderedBefore(const Stamp &Earlier, const std::string &Stream) const;
  // The legacy default stream (handle 0 or cudaStreamLegacy) synchronizes
  // with blocking streams, whose flags are not recorded: launches on it are
  // treated as ordered with everything rather than guessed at.
  static bool isLegacy(const std::string &Stream);

private:
  using Clock = std::map<std::string, uint64_t>;
  static void join(Clock &Into, const Clock &From);
  // What work enqueued on Stream now follows: its own past, what it waited
  // for, and what the host has seen finish.
  Clock current(const std::string &Stream) const;
  std::map<std::string, Clock> Streams, Events;
  Clock Host;
};

} // namespace graphsafe::rt
