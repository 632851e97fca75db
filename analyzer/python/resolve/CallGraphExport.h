// The Python call graph graphlint resolves, written in PyCG's JSON format
// (github vitsalis/PyCG): each function's qualified name mapped to what it
// may call. Module top level is the module's name, lambdas are
// `scope.<lambdaN>` numbered in source order within their scope, Python's
// builtins are `<builtin>.NAME`, and library code is named by the import
// path it was reached through.
#pragma once

#include "Reachability.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace graphsafe::lint::py {

// CxxNames: the qualified name of each C++ function by its USR; C++
// functions join the same map under those names (`ns::Class::method`), so
// one file shows what a capture reaches across both languages. Sites: each
// caller maps to `[{"callee": NAME, "at": ["FILE:LINE", ...]}]`, the calls
// that may run each callee, instead of PyCG's plain list of names.
nlohmann::ordered_json callGraphJson(const ResolvedCalls &Calls,
                                     const std::map<std::string, std::string> &CxxNames = {},
                                     bool Sites = false);

// PyCG's name for a summary key (`py:pkg.mod.<module>` -> `pkg.mod`, `ext:len`
// -> `<builtin>.len`); empty for keys that name no Python function (C++ code,
// the unknown result of calling a library's function).
std::string pycgName(const std::string &Key);

} // namespace graphsafe::lint::py
