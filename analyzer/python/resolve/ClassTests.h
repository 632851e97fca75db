// `isinstance(x, C)` and `callable(x)` decided for a value whose project
// classes are known: a factory helper that hands an object back when it is
// already one of its kind (`if isinstance(sampler, Sampler): return
// sampler`) and builds or calls otherwise returns, for a caller passing a
// `Sampler()`, that sampler alone.
#pragma once

#include "../../Summary.h"
#include "../PyModule.h"

#include <string>
#include <vector>

namespace graphsafe::lint::py {

enum class ClassAnswer { No, Maybe, Yes };

// Whether an instance of the project class Class is an instance of one of
// the classes Tested lists (qualified names, comma-separated). A library
// class Class does not derive from, or a name that is no class, may be
// among its library bases' own bases: Maybe, never No.
ClassAnswer instanceOf(const PyProgram &P, const std::string &Class, std::string_view Tested);

// Whether an instance of the project class Class is callable: a `__call__`
// in its project classes, or a library base known to have one (torch.nn's
// modules); No only where every base it has is a project class or one known
// to have none.
ClassAnswer callableInstance(const PyProgram &P, const std::string &Class);

// Whether the class test PT (ParamTest::Kind IsInstance to NotCallable) may
// hold for a value that is an instance of one of Classes.
bool classTestMayHold(const PyProgram &P, const ParamTest &PT,
                      const std::vector<std::string> &Classes);

// A test of the value's class, which no literal fact (ConstArg) states:
// where it held, nothing is known that a walk could carry on.
inline bool ofClass(const ParamTest &PT) {
  using K = ParamTest::Kind;
  return PT.K == K::IsInstance || PT.K == K::NotInstance || PT.K == K::IsCallable ||
         PT.K == K::NotCallable;
}

} // namespace graphsafe::lint::py
