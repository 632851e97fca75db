#include "PyIndexArchive.h"

#include "cache/BinaryArchive.h"
#include "cache/ContentHash.h"

#include <algorithm>

namespace graphsafe::lint::py {

namespace {

// The index's fields in the archive's order, handed to Use: the one list
// that packing, unpacking and the interface hash share, so that a field
// added to the index cannot be left out of one of them. Functions stands in
// for M.Functions (the interface leaves lambdas out).
// Spelled stands in for M.SpelledNames (the interface leaves them out).
template <typename Module, typename Functions, typename Names, typename Fn>
decltype(auto) indexFields(Module &M, Functions &Fs, Names &Spelled, Fn &&Use) {
  return Use(M.Imports, M.Defs, Fs, M.Classes, M.RegisteredGenerators, M.GlobalsBuilt,
             M.ImportedModules, M.ModuleAttrStores, M.ContextVars, M.SetsDefaultDevice, Spelled);
}

} // namespace

std::string packIndex(const PyModuleInfo &M) {
  return indexFields(M, M.Functions, M.SpelledNames,
                     [](const auto &...Fields) { return packBinary(Fields...); });
}

bool unpackIndex(llvm::StringRef Bytes, PyModuleInfo &M) {
  if (!indexFields(M, M.Functions, M.SpelledNames,
                   [&](auto &...Fields) { return unpackBinary(Bytes, Fields...); }))
    return false;
  for (auto &[Name, C] : M.Classes)
    C.Module = &M;
  return !M.Functions.empty() && M.Functions.front().IsModuleBody;
}

std::string interfaceHash(const PyModuleInfo &M) {
  // A call a function's returns hand on (ReturnedByCall) is a fact of its
  // body: its readers note a read of that body (PyTypes::returnedClassObjects),
  // so an edit of a `return f(x)` redoes them alone, not every module.
  auto bodyFact = [](const std::string &S) { return S.rfind(ReturnedByCall, 0) == 0; };
  auto dropBodyFacts = [&](std::vector<std::string> &Spelled) {
    Spelled.erase(std::remove_if(Spelled.begin(), Spelled.end(), bodyFact), Spelled.end());
  };
  std::vector<PyFunctionDef> Named;
  for (const auto &F : M.Functions)
    if (!F.IsLambda) {
      Named.push_back(F);
      dropBodyFacts(Named.back().ReturnsClassObjects);
      for (auto &Element : Named.back().ReturnsElementClassObjects)
        dropBodyFacts(Element);
    }
  const std::set<std::string> NoNames;
  return contentHash(
      indexFields(M, Named, NoNames, [](const auto &...Fields) { return packBinary(Fields...); }));
}

std::string learnedHash(const PyProgram &P) { return contentHash(packBinary(P.Learned)); }

} // namespace graphsafe::lint::py
