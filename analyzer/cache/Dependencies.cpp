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

namespace {

bool unchanged(const std::vector<Dependency> &Deps) {
  return std::all_of(Deps.begin(), Deps.end(), [](const Dependency &D) {
    std::optional<std::string> Now = fileHash(D.Path);
    return Now && *Now == D.Hash;
  });
}

} // namespace

bool writeEntry(const CacheStore &Store, const std::string &Path, nlohmann::json Body,
                const std::vector<Dependency> &Deps) {
  nlohmann::json List = nlohmann::json::array();
  for (const auto &D : Deps)
    List.push_back({D.Path, D.Hash});
  Body["deps"] = std::move(List);
  // Paths and names need not be UTF-8: invalid bytes are replaced, not thrown on.
  return Store.write(Path, Body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::optional<nlohmann::json> readFreshEntry(const CacheStore &Store, const std::string &Path,
                                             std::vector<Dependency> *DepsOut) {
  std::optional<std::string> Bytes = Store.read(Path);
  if (!Bytes)
    return std::nullopt;
  nlohmann::json J = nlohmann::json::parse(*Bytes, nullptr, /*allow_exceptions=*/false);
  std::vector<Dependency> Deps;
  try {
    if (J.is_discarded() || !J.is_object())
      return std::nullopt;
    for (const auto &E : J.at("deps"))
      Deps.push_back({E.at(0).get<std::string>(), E.at(1).get<std::string>()});
  } catch (const nlohmann::json::exception &) {
    return std::nullopt;
  }
  if (Deps.empty() || !unchanged(Deps))
    return std::nullopt;
  if (DepsOut)
    *DepsOut = std::move(Deps);
  return J;
}

} // namespace graphsafe::lint
