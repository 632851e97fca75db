// The Python front end's result cache. A module's results depend on other
// modules, so unlike a C++ translation unit's they are not keyed by its own
// text alone: each program (one set of files) keeps a manifest of what every
// module's analysis read, and a module is analysed again when its text or the
// code it read of other modules changed (PyParts.h: the function, signature
// or class it read, not the whole file). Changes visible beyond a module's code
// (a name defined, imported or derived from; what calls tell about
// parameters) invalidate every module: correctness first, speed for the
// common edit, a change inside function bodies.
#pragma once

#include "PyModule.h"
#include "PyParts.h"
#include "Summary.h"
#include "cache/CacheStore.h"
#include "graphsafe/Finding.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace graphsafe::lint::py {

// The stages of a module's analysis whose results are cached: what its
// calls tell about parameters (before classes handed as objects are known,
// then twice more as what the rounds before learned lets instances kept on
// self and handed on be known), and its summary.
enum PyStage { LearnFirst, LearnSecond, LearnThird, LearnFourth, Summarise, NumStages };
inline constexpr int LearnRounds = Summarise - LearnFirst;

struct PyModuleEntry {
  bool Parsed = false; // false: the file could not be read as Python
  std::string Index;   // packIndex, before linking
  std::vector<ToolError> Errors, Warnings;
  size_t Lines = 0;
  PyLearned Learned[LearnRounds];
  TUSummary Summary;
  // partHashes of the module: set against those of its next version, they
  // say which pieces an edit changed.
  PyPartHashes Parts;
};

struct PyFileRecord {
  std::string Hash, Interface;
  std::array<PyReads, NumStages> Reads;
};

struct PyManifest {
  std::map<std::string, PyFileRecord> Files; // by path
  // learnedHash after each round of learning but the last, and after all
  std::array<std::string, LearnRounds - 1> LearnedAfter;
  std::string Learned;
  // PyProgram::neverNamed's hash: methods nothing names, which no module's
  // interface says alone.
  std::string NeverNamed;
  // The swapped classes (learnSwappedClasses) type attributes of classes
  // that a warm run would otherwise not parse: kept with the learned hash
  // they were worked out from and the code they read.
  std::string SwapsFrom;
  PyReads SwapReads;
  std::map<std::string, std::string> Swapped;
};

class PyResultCache {
public:
  // Program names the set of files (and the tool and rules) analysed
  // together; nothing is shared between programs.
  PyResultCache(const CacheStore &Store, std::string Program)
      : Store(Store), Program(std::move(Program)) {}

  std::optional<PyManifest> manifest() const;
  void storeManifest(const PyManifest &M) const;
  // A module's entry, by its text's hash and the name it has in the program.
  std::optional<PyModuleEntry> entry(const std::string &Path, const std::string &Hash,
                                     const std::string &Module) const;
  void storeEntry(const std::string &Path, const std::string &Hash, const std::string &Module,
                  const PyModuleEntry &E) const;

private:
  std::string entryKey(const std::string &Path, const std::string &Hash,
                       const std::string &Module) const;
  const CacheStore &Store;
  std::string Program;
};

} // namespace graphsafe::lint::py
