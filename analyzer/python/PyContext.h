// What the Python checks see of one function: its types, the capture regions
// and guarded ranges in it, and a way to report sites with their context.
#pragma once

#include "PyCaptureEffects.h"
#include "PyTypes.h"
#include "Summary.h"
#include "graphsafe/Rule.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace graphsafe::lint::py {

struct PyRegion {
  unsigned Begin = 0, End = 0; // byte offsets, [Begin, End)
  SourceLoc BeginLoc;
  std::string Graph; // the graph object's spelling, when the region names one
  TSNode Opener{};   // the `with` statement, the capture_begin call or a call that begins
  TSNode Closer{};   // the capture_end call or a call that ends; null for `with`
  // The streams the begin and the end run on, canonical
  // (PyCaptureEffects.h): empty for the current stream where they are called.
  std::string BeginStream, EndStream;
  // For a `with`: the call that makes its capture context, in the `with`
  // itself or where the local it names was bound (`ctx = torch.cuda.graph(g)`).
  TSNode Made{};
};

class PyFunctionContext {
public:
  PyFunctionContext(const PyTypes &T, const RuleSet &Rules,
                    const std::map<std::string, const Rule *> &CheckRules, FunctionSummary &Out)
      : T(T), S(*T.M.Src), Rules(Rules), CheckRules(CheckRules), Out(Out) {}

  TSNode body() const { return T.F.body(); }
  CaptureContext contextAt(unsigned Offset, SourceLoc *RegionBegin = nullptr) const;
  const PyRegion *regionAt(unsigned Offset) const;
  bool inCapture(unsigned Offset) const {
    auto C = contextAt(Offset);
    return C == CaptureContext::InRegion || C == CaptureContext::Ambient;
  }

  // A site for this rule at N, in the rule's Python message (or its own).
  void report(const Rule &R, TSNode N, const std::string &Callee);
  // For the rule that enables the named check, if one is loaded. Message is
  // the whole message; Always reports outside any region too (lifetime
  // mistakes after capture).
  void reportCheck(const std::string &Check, TSNode N, const std::string &Message,
                   std::vector<Note> Notes = {}, bool Always = false,
                   std::vector<ParamTest> Also = {});
  // For the rule that enables the named check, in the context given: a
  // capture begun where this function is Ambient nests in its caller's.
  void reportCheckIn(const std::string &Check, TSNode N, const std::string &Message,
                     std::vector<Note> Notes, CaptureContext Context, SourceLoc RegionBegin = {},
                     std::vector<ParamTest> Also = {});
  bool checkEnabled(const std::string &Check) const { return CheckRules.count(Check); }
  // The tests of this function's parameters N runs under (PyConstantBranches.cpp).
  std::vector<ParamTest> testsAt(TSNode N) const;
  // Whether code at N under these tests may run, given the mode flags the
  // `with` blocks around it set (PyModeFlags.cpp).
  bool runsUnderModes(const std::vector<ParamTest> &When, TSNode N) const;
  // What the tests When (a call's, testsAt) tell the closures this function
  // defines of its parameters: a call made after `if single_run: return`
  // hands on `execute`, whose `if single_run:` is then false
  // (PyConstantBranches.cpp).
  std::vector<ConstArg> closureFactsAt(const std::vector<ParamTest> &When) const;
  // For a call made where this function has no capture of its own (Context
  // Ambient): when the walk follows it from a capture, this function's whole
  // call runs inside that capture, and with it the frame the `nonlocal`
  // state of its closures lives in (closureFrameKey). Nothing for a function
  // none of whose closures declares `nonlocal` (PyConstantBranches.cpp).
  std::vector<ConstArg> closureFrameFacts(CaptureContext Context) const;
  // The environment variable N runs only when set, or "" (PyEnvGates.cpp).
  std::string envGateAt(TSNode N) const;

  const PyTypes &T;
  const PySource &S;
  const RuleSet &Rules;
  std::vector<PyRegion> Regions;
  std::vector<std::pair<unsigned, unsigned>> Guarded;
  // The side of a capture-status test that runs only while capturing (`if
  // torch.cuda.is_current_stream_capturing(): keep.append(buf)`): its author
  // means it to happen once, at capture, so its host bookkeeping and logging
  // are no finding, here or in what its calls reach (CallEdge::Mechanism).
  std::vector<std::pair<unsigned, unsigned>> CaptureOnly;
  bool captureOnly(unsigned Offset) const {
    return std::any_of(CaptureOnly.begin(), CaptureOnly.end(),
                       [&](const auto &R) { return R.first <= Offset && Offset < R.second; });
  }
  // What the calls here do to capture state, in source order, as
  // findRegions found it (PyCaptureEffects.h).
  std::vector<std::pair<TSNode, CaptureEffect>> CallEffects;

private:
  const std::map<std::string, const Rule *> &CheckRules;
  FunctionSummary &Out;
};

// Whether Q is one of the spellings Names lists (a capture spec's).
inline bool listed(const std::vector<std::string> &Names, std::string_view Q) {
  return !Q.empty() && std::find(Names.begin(), Names.end(), Q) != Names.end();
}

// The call that makes V, a `with` context, capture: a capture context
// manager or a project function that returns or yields inside one, written
// in place, picked by a conditional expression (`torch.cuda.graph(g) if
// capture else nullcontext()`) or held in a local that one of the bindings
// reaching the `with` makes so. Null when V never captures.
TSNode capturingContext(const PyTypes &T, const CaptureSpec &Spec, TSNode V);

// Finds the capture regions (`with torch.cuda.graph(g):`, capture_begin/end)
// and the ranges a capture-status test keeps out of capture.
void findRegions(PyFunctionContext &Ctx, const CaptureSpec &Spec);

// The global-fact name (ParamTest::Global) under which a closure tests
// parameter Index of Function, the function defining it.
std::string closureFactKey(const std::string &Function, unsigned Index);
// The fact (FrameFact) "Function's call runs inside the capture": a
// closure's change to a `nonlocal` of Function is then state of one captured
// call.
std::string closureFrameKey(const std::string &Function);

} // namespace graphsafe::lint::py
