// The Python front end's rule families, one class each as on the C++ side:
// the family decides what to look for, rule files decide ids and words.
#pragma once

#include "../PyContext.h"

#include <memory>
#include <set>
#include <vector>

namespace graphsafe::lint::py {

class PyCheck {
public:
  virtual ~PyCheck() = default;
  virtual void run(PyFunctionContext &Ctx) = 0;
};

// Rules whose `python: match` clauses name calls and methods.
std::unique_ptr<PyCheck> makePyCallSpellingCheck(const RuleSet &Rules);
std::unique_ptr<PyCheck> makePyHostSideEffectCheck();
std::unique_ptr<PyCheck> makePyControlFlowCheck();
std::unique_ptr<PyCheck> makePyRngCheck();
std::unique_ptr<PyCheck> makePyStreamCheck();
std::unique_ptr<PyCheck> makePyLifetimeCheck(const CaptureSpec &Spec);
std::unique_ptr<PyCheck> makePyLifecycleCheck(const CaptureSpec &Spec);

std::vector<std::unique_ptr<PyCheck>> makeAllPyChecks(const RuleSet &Rules);

// The family check names rule files may enable with `python: match: [check: NAME]`.
const std::set<std::string> &knownPyCheckNames();

inline bool isLoop(TSNode N) { return is(N, "for_statement") || is(N, "while_statement"); }

// The graph Call replays (`g` of `g.replay()`, by the capture spec's replay
// method names), empty when Call replays nothing.
std::string_view replayedGraph(const PySource &S, const CaptureSpec &Spec, TSNode Call);

// Whether E may be a tensor: known to be one, or unknown and not a module path.
bool mayBeTensor(const PyTypes &T, TSNode E);
// The spelling of a call's callee for messages (`loss.item`, `torch.cuda.synchronize`).
std::string calleeText(const PySource &S, TSNode Call);
// Whether a call's `device=` keyword, or else one of its positional
// arguments, names Device (`"cpu"`, `"cpu:0"`, `torch.device("cpu")`).
bool deviceNamed(const PySource &S, const CallArgs &A, const std::string &Device);
// The names an assignment target binds (`a`, `a, (b, c)`).
void collectNames(const PySource &S, TSNode Target, std::set<std::string> &Into);

} // namespace graphsafe::lint::py
