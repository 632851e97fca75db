// What a call hands a function's container parameters: the elements of a
// list or tuple passed for a parameter (`run_all(x, [hook_a, hook_b])`), the
// positional arguments that go into its `*args` (`Compose(norm, crop)`),
// and a container handed on whole (`self.fns = fns`, `list(fns)`). They are
// the parameter's items, which `for f in fns: f(x)` and `fns[0](x)` call:
// kept as item storage for every caller, and bound per call site so that a
// call on a chain runs what that call passed.
#pragma once

#include "../PyTypes.h"
#include "Containers.h"

#include <string>
#include <utility>
#include <vector>

namespace graphsafe::lint::py {

struct HandedItems {
  // The callee parameter's item key (parameterItemKey).
  std::string Key;
  // The elements the call spells out.
  std::vector<Element> Elements;
  // The caller's item storage whose items the argument holds: a local
  // container (`hooks = []` filled by appends), the caller's own parameter
  // handed on, copies of them (`list(fns)`).
  std::vector<std::string> Linked;
  // Whether Elements are all the parameter's items hold for this call: a
  // literal, or the positions that go into `*args`.
  bool Complete = false;
  // The caller's own container parameter handed on as it is: its item key,
  // whose per-call binding carries on.
  std::string HandedOn;
};

// For Call of the project function Callee: the items each container
// parameter of Callee is handed, where the call says anything of them. A
// parameter counts where Callee's code (or a closure's) reads its items:
// iterates, indexes, splats, copies, stores or hands it on whole.
// Bound: boundArguments of the call.
std::vector<HandedItems> handedItems(const PyTypes &Caller, const std::string &Callee, TSNode Call,
                                     const std::vector<std::pair<unsigned, TSNode>> &Bound);

// The item storage whose items the container E holds: a name or attribute
// holding a container, or `list(x)`, `tuple(x)`, `nn.ModuleList(x)`, `[v
// for v in x]`, `x[1:]` of one. The elements E spells are
// sequenceElements'.
std::vector<std::string> itemSources(const PyTypes &T, TSNode E);

} // namespace graphsafe::lint::py
