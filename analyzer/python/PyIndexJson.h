// A module's index (what it defines and imports, no syntax tree) and its
// share of the learned parameter tables, to and from JSON: what the Python
// result cache keeps so an unchanged module is linked into the program
// without being parsed.
#pragma once

#include "PyModule.h"

#include <nlohmann/json.hpp>

namespace graphsafe::lint::py {

// The index as indexModule left it, before PyProgram::link qualified it.
nlohmann::json indexToJson(const PyModuleInfo &M);
// Fills M's index from J (M's names and paths are already set); false when J
// is not an index this version wrote.
bool indexFromJson(const nlohmann::json &J, PyModuleInfo &M);
// A digest of what other modules can see of M without its tree: every name
// it defines, imports and derives from. Lambdas are left out: they are named
// by where they start, which any edit above them moves, and only a read of
// M's own code can reach one.
std::string interfaceHash(const nlohmann::json &Index);

nlohmann::json learnedToJson(const PyLearned &L);
bool learnedFromJson(const nlohmann::json &J, PyLearned &L);
// A digest of the program's learned tables, as merged.
std::string learnedHash(const PyProgram &P);

} // namespace graphsafe::lint::py
