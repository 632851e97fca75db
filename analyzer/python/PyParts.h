// The pieces of a module whose reads are recorded (PyProgram's accessors)
// and hashed, so an edit inside one function redoes only the analyses that
// read that function, not every module that read anything of its file. A
// caller of a function reads its signature; the capture-status helper it
// calls, or the class whose attributes it types, it reads whole.
#pragma once

#include "PyModule.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace graphsafe::lint::py {

enum class PyPart {
  Module,    // all of it (PyProgram::tree)
  TopLevel,  // its top-level statements, not the bodies of defs and classes
  Function,  // one function or lambda, decorators included
  Signature, // a function's decorators, parameters and return annotation
  Class,     // one class, its methods included
};

std::uint64_t partKey(PyPart Kind, const std::string &Path, const std::string &Name = "");

// Every piece of M (which has its tree) by partKey, each with a hash of its
// text. A piece whose text holds a lambda hashes where it starts too:
// lambdas are named by their offset, and readers may keep those names.
// Sorted by key: what every warm run reads back for every module.
using PyPartHashes = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
PyPartHashes partHashes(const PyModuleInfo &M);
// The keys of the pieces that differ between two versions of a module, or
// that only one of them has.
void changedParts(const PyPartHashes &Before, const PyPartHashes &After,
                  std::set<std::uint64_t> &Into);

} // namespace graphsafe::lint::py
