#include "ImportedByName.h"

#include "../PyTypes.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace graphsafe::lint::py {

namespace {

// The module an import_module argument names: a plain string's text, or
// an f-string's text up to its first interpolation (Cut then says so).
std::optional<std::string> moduleSpelling(const PySource &S, TSNode Str, bool &Cut) {
  Cut = false;
  if (auto Plain = plainString(S, Str))
    return Plain;
  if (!is(Str, "string"))
    return std::nullopt;
  std::string_view Text = S.text(Str);
  size_t Open = Text.find_first_of("'\"");
  if (Open == std::string_view::npos ||
      Text.substr(0, Open).find_first_of("fF") == std::string_view::npos ||
      Text.substr(Open, 3) == "\"\"\"" || Text.substr(Open, 3) == "'''")
    return std::nullopt;
  size_t Brace = Text.find('{', Open);
  if (Brace == std::string_view::npos)
    return std::nullopt;
  Cut = true;
  return std::string(Text.substr(Open + 1, Brace - Open - 1));
}

// The plain string literals of a module that could name a class.
std::vector<std::string> identifierStrings(const PySource &S) {
  std::set<std::string> Names;
  walk(S.root(), [&](TSNode N) {
    if (!is(N, "string"))
      return true;
    if (auto Text = plainString(S, N);
        Text && !Text->empty() && !isdigit(static_cast<unsigned char>(Text->front())) &&
        std::all_of(Text->begin(), Text->end(),
                    [](char C) { return isalnum(static_cast<unsigned char>(C)) || C == '_'; }))
      Names.emplace(std::move(*Text));
    return false;
  });
  return {Names.begin(), Names.end()};
}

} // namespace

std::optional<std::string> importedClassSpelling(const PySource &S, TSNode Module, TSNode Name) {
  std::string_view Callee = is(Module, "call") ? S.text(field(Module, "function")) : "";
  if (Callee != "importlib.import_module" && Callee != "import_module")
    return std::nullopt;
  CallArgs A = argsOf(S, Module);
  if (A.Positional.empty())
    return std::nullopt;
  TSNode Arg = unparen(A.Positional[0]);
  bool Joined = is(Arg, "binary_operator"); // "serve.models." + name
  bool Cut = false;
  auto Prefix = moduleSpelling(S, Joined ? unparen(field(Arg, "left")) : Arg, Cut);
  if (!Prefix || Prefix->empty() || ((Joined || Cut) && Prefix->back() != '.'))
    return std::nullopt;
  std::vector<std::string> Names;
  if (auto Literal = plainString(S, Name))
    Names.push_back(std::move(*Literal));
  else
    Names = identifierStrings(S);
  if (Names.empty())
    return std::nullopt;
  std::string Out = std::string(ImportedClasses) + *Prefix + "|";
  for (size_t I = 0; I < Names.size(); ++I)
    Out += (I ? "," : "") + Names[I];
  return Out;
}

const std::vector<std::string> &importedClasses(const PyProgram &P, PyTypeCache &Cache,
                                                std::string_view Spec,
                                                const std::string &RootPrefix) {
  auto [It, New] = Cache.ImportedClassObjects.try_emplace(RootPrefix + "|" + std::string(Spec));
  std::vector<std::string> &Out = It->second;
  size_t Bar = Spec.find('|');
  if (!New || Bar == std::string_view::npos || Bar == 0)
    return Out;
  const std::string Prefix = RootPrefix + std::string(Spec.substr(0, Bar));
  std::vector<std::string_view> Names;
  for (std::string_view Rest = Spec.substr(Bar + 1); !Rest.empty();) {
    size_t Comma = Rest.find(',');
    Names.push_back(Rest.substr(0, Comma));
    Rest = Comma == std::string_view::npos ? std::string_view() : Rest.substr(Comma + 1);
  }
  // The package's own modules, not those of its subpackages.
  auto named = [&](std::string_view Module) {
    if (Prefix.back() != '.')
      return Module == Prefix;
    return Module.size() > Prefix.size() && startsWith(Module, Prefix) &&
           Module.find('.', Prefix.size()) == std::string_view::npos;
  };
  for (const auto &Mod : P.Modules) {
    bool Match = named(Mod->Module);
    for (const auto &A : Mod->Aliases)
      Match = Match || named(A);
    if (!Match)
      continue;
    for (std::string_view Name : Names)
      if (std::string Q = P.canonical(Mod->Module + "." + std::string(Name)); P.classNamed(Q))
        Out.push_back(std::move(Q));
  }
  return Out;
}

const std::vector<std::string> &namespaceClasses(const PyProgram &P, PyTypeCache &Cache,
                                                 const PyModuleInfo &M) {
  auto [It, New] = Cache.ImportedClassObjects.try_emplace("globals()|" + M.Path);
  std::vector<std::string> &Out = It->second;
  if (!New)
    return Out;
  std::vector<std::pair<std::string, std::string>> Bound; // local name, class
  auto bind = [&](const std::map<std::string, std::string> &Names) {
    for (const auto &[Local, Q] : Names)
      if (std::string C = P.canonical(Q); P.classNamed(C))
        Bound.push_back({Local, std::move(C)});
  };
  bind(M.Defs);
  bind(M.Imports);
  std::set<std::string> Named;
  auto literalsOf = [&](const PyModuleInfo &Mod) {
    for (auto &Name : identifierStrings(*P.tree(Mod).Src))
      Named.insert(std::move(Name));
  };
  literalsOf(M);
  for (const auto &Imported : M.ImportedModules)
    if (const PyModuleInfo *Mod = P.moduleNamed(Imported); Mod && Mod != &M)
      literalsOf(*Mod);
  bool Narrowed = std::any_of(Bound.begin(), Bound.end(),
                              [&](const auto &B) { return Named.count(B.first) > 0; });
  for (auto &[Local, C] : Bound)
    if (!Narrowed || Named.count(Local))
      Out.push_back(std::move(C));
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

} // namespace graphsafe::lint::py
