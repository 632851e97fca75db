#include "PyIndexArchive.h"

#include "cache/BinaryArchive.h"
#include "cache/ContentHash.h"

namespace graphsafe::lint::py {

std::string packIndex(const PyModuleInfo &M) {
  return packBinary(M.Imports, M.Defs, M.Functions, M.Classes, M.RegisteredGenerators,
                    M.GlobalsBuilt, M.ImportedModules, M.ModuleAttrStores, M.SetsDefaultDevice);
}

bool unpackIndex(llvm::StringRef Bytes, PyModuleInfo &M) {
  if (!unpackBinary(Bytes, M.Imports, M.Defs, M.Functions, M.Classes, M.RegisteredGenerators,
                    M.GlobalsBuilt, M.ImportedModules, M.ModuleAttrStores, M.SetsDefaultDevice))
    return false;
  for (auto &[Name, C] : M.Classes)
    C.Module = &M;
  return !M.Functions.empty() && M.Functions.front().IsModuleBody;
}

std::string interfaceHash(const PyModuleInfo &M) {
  std::vector<PyFunctionDef> Named;
  for (const auto &F : M.Functions)
    if (!F.IsLambda)
      Named.push_back(F);
  return contentHash(packBinary(M.Imports, M.Defs, Named, M.Classes, M.RegisteredGenerators,
                                M.GlobalsBuilt, M.ImportedModules, M.ModuleAttrStores,
                                M.SetsDefaultDevice));
}

std::string learnedHash(const PyProgram &P) { return contentHash(packBinary(P.Learned)); }

} // namespace graphsafe::lint::py
