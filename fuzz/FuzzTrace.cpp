// Traces come from crashed, killed or foreign processes: any bytes are read
// into events or errors, and the hazard engine takes whatever events result.
#include "Events.h"
#include "HazardEngine.h"
#include "graphsafe/Rule.h"

#include <cstddef>
#include <cstdint>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const graphsafe::RuleSet Rules = [] {
    std::vector<graphsafe::RuleError> Errors;
    return graphsafe::loadRules({GRAPHSAFE_RULES}, Errors);
  }();
  std::istringstream In(std::string(reinterpret_cast<const char *>(Data), Size));
  std::vector<graphsafe::rt::TraceError> Errors;
  auto Events = graphsafe::rt::readTrace(In, Errors);
  graphsafe::rt::HazardEngine Engine(Rules);
  for (const auto &E : Events)
    Engine.feed(E);
  Engine.findings();
  return 0;
}
