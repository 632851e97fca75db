// `isinstance(x, C)` and `callable(x)` decided for a value whose project
// classes are known: a factory helper that hands an object back when it is
// already one of its kind (`if isinstance(sampler, Sampler): return
// sampler`) and calls what it is handed when that is a callable (`elif
// callable(sampler): sampler = sampler()`) hands a `Sampler()` back as it
// is.
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

// Whether the class test PT (ParamTest::ofClass) may hold for a value that
// is an instance of one of Classes.
bool classTestMayHold(const PyProgram &P, const ParamTest &PT,
                      const std::vector<std::string> &Classes);

} // namespace graphsafe::lint::py
