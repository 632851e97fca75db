#include "ImportSystem.h"

#include "../PyModule.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace graphsafe::lint::py {

bool isSkippedFolder(const std::string &Name) {
  static const std::set<std::string> Skip = {"__pycache__", "node_modules", "venv", "site-packages",
                                             "build"};
  return Name.empty() || Name.front() == '.' || Skip.count(Name) > 0;
}

bool isIdentifier(const std::string &Name) {
  if (Name.empty() || std::isdigit(static_cast<unsigned char>(Name[0])))
    return false;
  return std::all_of(Name.begin(), Name.end(), [](char C) {
    return C == '_' || std::isalnum(static_cast<unsigned char>(C)) || (C & 0x80);
  });
}

bool isPackageFolder(const std::string &Dir) {
  std::error_code EC;
  return fs::exists(fs::path(Dir) / "__init__.py", EC);
}

namespace {

bool isPackage(const fs::path &Dir) { return isPackageFolder(Dir.string()); }

fs::path normal(const std::string &P) { return fs::absolute(P).lexically_normal(); }

// The dotted path from Root down to Dir ("" for Dir itself), when every
// folder on the way can be imported as a namespace package.
bool namespacePath(const fs::path &Root, const fs::path &Dir, std::string &Out) {
  fs::path Rel = Dir.lexically_relative(Root);
  if (Rel.empty() || *Rel.begin() == "..")
    return false;
  Out.clear();
  if (Rel == ".")
    return true;
  fs::path Walk = Root;
  for (const auto &Part : Rel) {
    Walk /= Part;
    if (!isIdentifier(Part.string()) || isPackage(Walk))
      return false;
    Out += (Out.empty() ? "" : ".") + Part.string();
  }
  return true;
}

std::string join(const std::string &Prefix, const std::string &Name) {
  if (Prefix.empty())
    return Name;
  return Name.empty() ? Prefix : Prefix + "." + Name;
}

} // namespace

SourceRoots SourceRoots::of(const std::vector<std::string> &Given, const std::string &Top) {
  SourceRoots R;
  auto add = [&](const fs::path &P) {
    std::string S = P.string();
    if (!S.empty() && std::find(R.Folders.begin(), R.Folders.end(), S) == R.Folders.end())
      R.Folders.push_back(S);
  };
  auto findLinks = [&](const fs::path &Dir) {
    std::error_code EC;
    for (auto It = fs::recursive_directory_iterator(Dir, EC); !EC && It != fs::end(It);
         It.increment(EC)) {
      std::string Name = It->path().filename().string();
      std::error_code LinkEC;
      if (It->is_symlink(LinkEC)) {
        if (fs::is_directory(It->path(), LinkEC))
          R.Links.push_back(
              {It->path().lexically_normal().string(), fs::canonical(It->path(), LinkEC).string()});
      } else if (It->is_directory(LinkEC) && isSkippedFolder(Name)) {
        It.disable_recursion_pending();
      }
    }
  };
  for (const auto &G : Given) {
    std::error_code EC;
    fs::path P = normal(G);
    if (fs::is_directory(P, EC)) {
      if (Top.empty())
        findLinks(P);
      add(isPackage(P) ? P.parent_path() : P);
    } else if (!isPackage(P.parent_path())) {
      add(P.parent_path()); // a script: Python puts its folder first on sys.path
    }
  }
  if (!Top.empty()) {
    add(normal(Top));
    findLinks(normal(Top));
  }
  return R;
}

namespace {
ModuleNames namesAt(const std::string &Path, const SourceRoots &Roots);
} // namespace

ModuleNames moduleNamesOf(const std::string &Path, const SourceRoots &Roots) {
  ModuleNames N = namesAt(Path, Roots);
  std::error_code EC;
  std::string Real = fs::weakly_canonical(Path, EC).string();
  for (const auto &[Link, Target] : Roots.Links) {
    if (Real.rfind(Target + "/", 0) != 0)
      continue;
    ModuleNames Through = namesAt(Link + Real.substr(Target.size()), Roots);
    Through.Aliases.push_back(Through.Module);
    for (const auto &A : Through.Aliases)
      if (A != N.Module && std::find(N.Aliases.begin(), N.Aliases.end(), A) == N.Aliases.end())
        N.Aliases.push_back(A);
  }
  return N;
}

namespace {

ModuleNames namesAt(const std::string &Path, const SourceRoots &Roots) {
  ModuleNames N;
  N.Module = moduleNameOf(Path, &N.Package);
  // The folder above the top package (the file's own for a script).
  fs::path Top = normal(Path).parent_path();
  size_t Depth = N.Package.empty() ? 0 : std::count(N.Package.begin(), N.Package.end(), '.') + 1;
  for (size_t I = 0; I < Depth; ++I)
    Top = Top.parent_path();
  // Named from the nearest root above it through namespace folders; the
  // farther ones give aliases.
  std::vector<std::pair<size_t, std::string>> Prefixes;
  for (const auto &R : Roots.Folders) {
    std::string Prefix;
    if (namespacePath(R, Top, Prefix))
      Prefixes.push_back({fs::path(R).lexically_normal().string().size(), Prefix});
  }
  std::sort(Prefixes.begin(), Prefixes.end(), std::greater<>());
  // A package's modules keep the names their package gives them (the code
  // imports them so); a script is named from the nearest root.
  const bool Script = N.Package.empty();
  std::string Module = N.Module;
  auto alias = [&](const std::string &Name) {
    if (Name != N.Module && std::find(N.Aliases.begin(), N.Aliases.end(), Name) == N.Aliases.end())
      N.Aliases.push_back(Name);
  };
  for (size_t I = 0; I < Prefixes.size(); ++I) {
    std::string Name = join(Prefixes[I].second, Module);
    if (I == 0 && Script) {
      N.Module = Name;
      N.Package = Prefixes[I].second;
    } else {
      alias(Name);
    }
    // A namespace package may be imported from any folder above it that is
    // on the path (`python/minisgl/` without an __init__.py, imported as
    // `minisgl.core` with python/ on sys.path): each namespace folder on the
    // way starts a name too. A name starts at a folder, never at the file
    // or package itself, so `import json` never binds a nested json/.
    for (size_t Dot = Prefixes[I].second.find('.'); Dot != std::string::npos;
         Dot = Prefixes[I].second.find('.', Dot + 1))
      alias(join(Prefixes[I].second.substr(Dot + 1), Module));
  }
  return N;
}

} // namespace

} // namespace graphsafe::lint::py
