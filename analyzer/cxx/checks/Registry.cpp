#include "Check.h"

namespace graphsafe::lint {

std::vector<std::unique_ptr<Check>> makeAllChecks(const RuleSet &Rules) {
  std::vector<std::unique_ptr<Check>> Out;
  Out.push_back(makeCallSpellingCheck(Rules));
  Out.push_back(makeStreamCheck());
  Out.push_back(makeHostSideEffectCheck());
  Out.push_back(makeControlFlowCheck());
  Out.push_back(makeRngCheck());
  Out.push_back(makeLifecycleCheck());
  return Out;
}

const std::set<std::string> &knownCheckNames() {
  static const std::set<std::string> Names = {
      // StreamCheck
      "capture-on-default-stream", "default-stream-kernel-launch", "side-stream-without-fork",
      "fork-not-joined", "wait-on-external-event", "capture-end-other-stream",
      // HostSideEffectCheck
      "host-state-mutation", "host-scalar-baked",
      // ControlFlowCheck
      "data-dependent-branch",
      // RngCheck
      "unregistered-generator", "host-seeded-kernel",
      // LifecycleCheck
      "nested-capture", "capture-begin-twice", "relaxed-capture-mode", "throw-leaves-capture-open"};
  return Names;
}

} // namespace graphsafe::lint
