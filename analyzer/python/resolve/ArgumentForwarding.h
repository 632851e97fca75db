// Arguments that reach a function through another one's `*args` and
// `**kwargs`: `def bench(*args, **kwargs): return bench_graphed(*args,
// **kwargs)` hands whatever its callers pass on, so `bench(model, data)`
// binds bench_graphed's `model`. Dispatchers, wrappers and wrapper modules
// (`def forward(self, *args, **kwargs): return self.module(*args,
// **kwargs)`) are written this way; without following them, what such a
// parameter holds is not known and calls through it are not followed.
#pragma once

#include "../PyTypes.h"

#include <optional>
#include <string>
#include <vector>

namespace graphsafe::lint::py {

// The names of F's `*args` and `**kwargs` parameters, empty where it has
// none.
struct SplatNames {
  std::string_view Varargs, Kwargs;
};
SplatNames splatNames(const PySource &S, const PyFunctionDef &F);

// An argument of a call, bound to parameter Index (as callers count them) of
// the project function Callee, which the called function reaches through
// its own `*args` or `**kwargs`.
struct ForwardedArgument {
  std::string Callee;
  unsigned Index = 0;
  TSNode Arg{};
};

// The arguments of Call (made in Caller's code to the project function
// Callee) that Callee hands on through its `*args` and `**kwargs`, to the
// parameters of the project functions it calls that way, and on through
// theirs, a few calls deep. Empty when every argument binds a parameter of
// Callee itself.
std::vector<ForwardedArgument> forwardedArguments(const PyTypes &Caller, const std::string &Callee,
                                                  TSNode Call);

// The project `__init__` methods the `__init__` Init hands its `**kwargs` to
// (`super().__init__(**kwargs)`: a subclass naming its own options and
// leaving the rest to its base).
std::vector<std::string> kwargsBaseInits(const PyTypes &Caller, const std::string &Init);

// The keywords `**name` (Splat) passes where name holds what a project
// function returns, or one element of the tuple it returns (`call_args, n =
// prepare(q)` then `decode(**call_args)`): a dict written out in every
// return, all with the same keys. Nothing when some return gives anything
// else, or the function cannot be told.
std::optional<std::vector<std::string>> returnedKeywords(const PyTypes &Caller, TSNode Splat);

// The number of parameters of F that a positional argument can bind: those
// before `*args` or a bare `*` (`self` not counted where callers do not
// pass it).
unsigned positionalParameters(const PyFunctionDef &F);

} // namespace graphsafe::lint::py
