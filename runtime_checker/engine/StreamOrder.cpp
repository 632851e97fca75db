#include "StreamOrder.h"

#include <algorithm>

namespace graphsafe::rt {

void StreamOrder::join(Clock &Into, const Clock &From) {
  for (const auto &[S, T] : From)
    Into[S] = std::max(Into[S], T);
}

StreamOrder::Clock StreamOrder::current(const std::string &Stream) const {
  Clock C = Host;
  if (auto It = Streams.find(Stream); It != Streams.end())
    join(C, It->second);
  return C;
}

StreamOrder::Stamp StreamOrder::launch(const std::string &Stream) {
  Clock C = current(Stream);
  uint64_t Tick = ++C[Stream];
  Streams[Stream] = std::move(C);
  return {Stream, Tick};
}

void StreamOrder::record(const std::string &Event, const std::string &Stream) {
  Events[Event] = current(Stream);
}

void StreamOrder::wait(const std::string &Stream, const std::string &Event) {
  if (auto It = Events.find(Event); It != Events.end())
    join(Streams[Stream], It->second);
}

void StreamOrder::hostWaitsStream(const std::string &Stream) {
  if (auto It = Streams.find(Stream); It != Streams.end())
    join(Host, It->second);
}

void StreamOrder::hostWaitsEvent(const std::string &Event) {
  if (auto It = Events.find(Event); It != Events.end())
    join(Host, It->second);
}

void StreamOrder::hostWaitsDevice() {
  for (const auto &[S, C] : Streams)
    join(Host, C);
}

bool StreamOrder::orderedBefore(const Stamp &Earlier, const std::string &Stream) const {
  if (Earlier.Stream == Stream || isLegacy(Earlier.Stream) || isLegacy(Stream))
    return true;
  Clock C = current(Stream);
  auto It = C.find(Earlier.Stream);
  return It != C.end() && It->second >= Earlier.Tick;
}

bool StreamOrder::isLegacy(const std::string &Stream) {
  return Stream.empty() || Stream == "0x0" || Stream == "0x1" || Stream == "0";
}

} // namespace graphsafe::rt
