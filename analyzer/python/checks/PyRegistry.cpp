#include "PyCheck.h"

#include <algorithm>

namespace graphsafe::lint::py {

std::vector<std::unique_ptr<PyCheck>> makeAllPyChecks(const RuleSet &Rules) {
  std::vector<std::unique_ptr<PyCheck>> Out;
  Out.push_back(makePyCallSpellingCheck(Rules));
  Out.push_back(makePyHostSideEffectCheck());
  Out.push_back(makePyControlFlowCheck());
  Out.push_back(makePyRngCheck());
  Out.push_back(makePyStreamCheck());
  Out.push_back(makePyLifetimeCheck(Rules.Capture));
  Out.push_back(makePyLifecycleCheck(Rules.Capture));
  return Out;
}

const std::set<std::string> &knownPyCheckNames() {
  static const std::set<std::string> Names = {
      // PyHostSideEffectCheck
      "host-state-mutation", "tensor-in-format", "host-scalar-read", "host-output",
      // PyControlFlowCheck
      "data-dependent-branch", "boolean-mask-index",
      // PyRngCheck
      "unregistered-generator",
      // PyStreamCheck
      "side-stream-without-fork", "fork-not-joined",
      // PyLifetimeCheck
      "static-input-rebound", "static-input-deleted", "grads-set-to-none",
      "output-read-after-replay", "scalar-changed-between-replays", "state-replaced-after-capture",
      // PyLifecycleCheck
      "nested-capture", "capture-begin-twice", "throw-leaves-capture-open",
      "shared-pool-replay-order", "capture-end-other-stream"};
  return Names;
}

bool mayBeTensor(const PyTypes &T, TSNode E) {
  E = unparen(E);
  Value V = T.valueOf(E);
  if (V.tensor())
    return true;
  if (V.K != VK::Unknown)
    return false;
  // `np.unique`, `torch.cuda`: a module path, not a value.
  TSNode Root = E;
  while (is(Root, "attribute"))
    Root = unparen(field(Root, "object"));
  if (is(Root, "identifier") && T.M.Imports.count(std::string(T.M.Src->text(Root))))
    return false;
  return is(E, "identifier") || is(E, "attribute") || is(E, "subscript") || is(E, "call");
}

std::string_view replayedGraph(const PySource &S, const CaptureSpec &Spec, TSNode Call) {
  TSNode Fn = field(Call, "function");
  if (!is(Fn, "attribute"))
    return {};
  std::string_view Method = S.text(field(Fn, "attribute"));
  if (std::find(Spec.PyReplay.begin(), Spec.PyReplay.end(), Method) == Spec.PyReplay.end())
    return {};
  return S.text(field(Fn, "object"));
}

std::string calleeText(const PySource &S, TSNode Call) {
  std::string Out;
  for (char C : S.text(field(Call, "function")))
    if (C != '\n' && C != ' ' && C != '\\')
      Out += C;
  if (Out.size() > 60)
    Out = "..." + Out.substr(Out.size() - 57);
  return Out;
}

} // namespace graphsafe::lint::py
