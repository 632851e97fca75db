#include "Dependencies.h"

#include "ContentHash.h"

#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

namespace graphsafe::lint {

std::vector<Dependency> dependenciesOf(const clang::SourceManager &SM) {
  std::vector<Dependency> Out;
  clang::FileManager &FM = SM.getFileManager();
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
    std::optional<llvm::StringRef> Data = It->second->getBufferDataIfLoaded();
    if (!Data)
      continue;
    llvm::StringRef Real = It->first.getFileEntry().tryGetRealPathName();
    llvm::SmallString<256> Path(Real.empty() ? It->first.getName() : Real);
    FM.makeAbsolutePath(Path);
    Out.push_back({std::string(Path), contentHash(*Data)});
  }
  std::sort(Out.begin(), Out.end(),
            [](const Dependency &A, const Dependency &B) { return A.Path < B.Path; });
  return Out;
}

bool dependenciesUnchanged(const std::vector<Dependency> &Deps) {
  return std::all_of(Deps.begin(), Deps.end(), [](const Dependency &D) {
    std::optional<std::string> Now = fileHash(D.Path);
    return Now && *Now == D.Hash;
  });
}

nlohmann::json dependenciesToJson(const std::vector<Dependency> &Deps) {
  nlohmann::json J = nlohmann::json::array();
  for (const auto &D : Deps)
    J.push_back({D.Path, D.Hash});
  return J;
}

std::vector<Dependency> dependenciesFromJson(const nlohmann::json &J) {
  std::vector<Dependency> Out;
  for (const auto &E : J)
    Out.push_back({E.at(0).get<std::string>(), E.at(1).get<std::string>()});
  return Out;
}

} // namespace graphsafe::lint
