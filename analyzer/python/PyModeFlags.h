// Module-level mode flags: a global a @contextmanager sets around the capture
// (`with set_batch_invariant_mode(True):`) and code under capture tests
// (`if is_batch_invariant_mode_enabled(): return fast_path(...)`). Branches
// the flag's value rules out do not run under that capture.
//
// A flag's value is a fact about the globals while the with block runs, found
// by running the context manager's code before its yield over the flags it
// declares `global`: each path through its branches (parameters bound to the
// literals passed, flags read back through locals such as
// `prev = _MODE`), the calls it makes (their own paths, a few levels deep), a
// raise ending the path. A flag is known when every path reaching the yield
// leaves it with one value.
#pragma once

#include "PyTypes.h"
#include "Summary.h"

#include <string>
#include <utility>
#include <vector>

namespace graphsafe::lint::py {

// The key of the module global a test reads ("module.NAME"), or "": `FLAG`
// of this module, a local bound to it or to a getter's result
// (`mode = is_mode_enabled()`), or a getter call itself (a function of no
// parameters whose body returns one global of its module).
std::string globalTested(const PyTypes &T, TSNode Atom);

// What the `with` blocks around N, in its function, set module globals to
// while N runs: innermost first, each with the offset its `with` begins at.
std::vector<std::pair<unsigned, ConstArg>> enclosingWithFacts(const PyTypes &T, TSNode N);

// The values the `with` blocks around N, in its function, give module
// globals while N runs (ConstArg::Global set). WholePath: those every path
// from the function's entry to N gives them, calls before N included, where
// those paths can be followed (not from inside a loop or a handler).
std::vector<ConstArg> modeFactsAt(const PyTypes &T, TSNode N, bool WholePath = false);

} // namespace graphsafe::lint::py
