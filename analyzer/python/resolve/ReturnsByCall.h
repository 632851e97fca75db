// What a call can get back from a project function whose returns sit under
// tests of its parameters, given what the call passes: `make_policy(device)`
// with `nn_module=True` by default returns the module built under `if
// nn_module:`, never the wrapper built after it. The callee's other returns
// are dead for this call, whatever other calls get.
#pragma once

#include "../PyTypes.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace graphsafe::lint::py {

// The analysis of the project function Callee's body, with its tree read
// (a caller's result then depends on that body); null while it is being
// built (a function reaching itself) or without a tree.
const PyTypes *calleeTypes(const PyTypes &Caller, const std::string &Callee);

struct LiveReturns {
  // The callee's own analysis, in which the values below are read.
  const PyTypes *Callee = nullptr;
  // The value of each return the call can reach.
  std::vector<TSNode> Values;
};

// For Call of the project function Callee: its returns that the literal
// arguments (and the defaults left to it) let run, when they rule some out;
// nothing when every return may run or nothing is known.
std::optional<LiveReturns> liveReturns(const PyTypes &Caller, const std::string &Callee,
                                       TSNode Call);

// The arguments of Call that the project function Callee hands back as the
// caller passed them, or kept as such (`model = model.to(dev)`, `model =
// DDP(model)`; PyFunctionDef::ReturnsKeptParams): its plain returns' with
// Element < 0, else those at position Element of the tuple every return
// gives (`model, dist = distribute(model)`).
std::vector<TSNode> returnedArguments(const PyTypes &Caller, const std::string &Callee,
                                      TSNode Call, int Element);

} // namespace graphsafe::lint::py
