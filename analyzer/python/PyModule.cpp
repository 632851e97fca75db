#include "PyModule.h"

#include "PyParts.h"
#include "TorchApi.h"
#include "resolve/ImportSystem.h"
#include "resolve/ImportedByName.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>

#include <filesystem>

namespace fs = std::filesystem;

namespace graphsafe::lint::py {

std::string moduleNameOf(const std::string &Path, std::string *Package) {
  fs::path P = fs::absolute(Path).lexically_normal();
  std::string Name = P.stem().string();
  // The package root is the topmost folder with an __init__.py within a few
  // levels; folders between without one are namespace packages (PEP 420).
  std::vector<std::string> Dirs;
  size_t Top = 0;
  std::error_code EC;
  fs::path D = P.parent_path();
  for (int Level = 0; Level < 8 && !D.empty() && D != D.root_path(); ++Level) {
    // A folder whose name is no identifier (`micro-benchmark`) cannot be
    // imported as a package, whatever it holds.
    if (!isIdentifier(D.filename().string()))
      break;
    Dirs.push_back(D.filename().string());
    if (fs::exists(D / "__init__.py", EC))
      Top = Dirs.size();
    D = D.parent_path();
  }
  std::string Pkg;
  for (size_t I = Top; I-- > 0;)
    Pkg += (Pkg.empty() ? "" : ".") + Dirs[I];
  if (Package)
    *Package = Pkg;
  if (Name == "__init__")
    return Pkg.empty() ? Name : Pkg;
  return Pkg.empty() ? Name : Pkg + "." + Name;
}

namespace {

std::string dotted(const PySource &S, TSNode N) {
  std::string Out;
  for (char C : S.text(N))
    if (C != ' ' && C != '\t' && C != '\n' && C != '\\' && C != '\r')
      Out += C;
  return Out;
}

// `from ..a import b` in package p.q.r: the module the dots and name point at.
std::string relativeBase(const PyModuleInfo &M, const std::string &Spelled) {
  size_t Dots = Spelled.find_first_not_of('.');
  if (Dots == std::string::npos)
    Dots = Spelled.size();
  std::string Rest = Spelled.substr(Dots);
  std::string Base = M.Package;
  for (size_t I = 1; I < Dots && !Base.empty(); ++I) {
    size_t Cut = Base.rfind('.');
    Base = Cut == std::string::npos ? "" : Base.substr(0, Cut);
  }
  if (Rest.empty())
    return Base;
  return Base.empty() ? Rest : Base + "." + Rest;
}

void indexImports(PyModuleInfo &M, TSNode N) {
  const PySource &S = *M.Src;
  if (is(N, "import_statement")) {
    for (TSNode C : namedChildren(N)) {
      if (is(C, "aliased_import")) {
        M.Imports[std::string(S.text(field(C, "alias")))] = dotted(S, field(C, "name"));
        M.ImportedModules.insert(dotted(S, field(C, "name")));
      } else if (is(C, "dotted_name")) {
        M.ImportedModules.insert(dotted(S, C));
        // `import a.b` binds a, and a.b.f still spells the full name.
        std::string Full = dotted(S, C);
        std::string Head = Full.substr(0, Full.find('.'));
        M.Imports.emplace(Head, Head);
      }
    }
    return;
  }
  // import_from_statement
  TSNode ModNode = field(N, "module_name");
  std::string From = dotted(S, ModNode);
  if (is(ModNode, "relative_import"))
    From = relativeBase(M, From);
  // `from a import b` imports a, and a.b when b is a module.
  M.ImportedModules.insert(From);
  uint32_t Count = ts_node_named_child_count(N);
  for (uint32_t I = 0; I < Count; ++I) {
    TSNode C = ts_node_named_child(N, I);
    if (ts_node_eq(C, ModNode))
      continue;
    if (is(C, "aliased_import"))
      M.Imports[std::string(S.text(field(C, "alias")))] = From + "." + dotted(S, field(C, "name"));
    else if (is(C, "dotted_name"))
      M.Imports[dotted(S, C)] = From + "." + dotted(S, C);
    else if (is(C, "wildcard_import"))
      M.Imports[StarImport + From] = From; // bound once every module is known
  }
}

// What a method does to its own object: the x of every `self.x = ...` and
// `self.x += ...` (Stores), the m of every `self.m(...)` (Calls), in one walk.
void noteSelfEffects(const PySource &S, TSNode Method, std::set<std::string> &Stores,
                     std::set<std::string> &Calls) {
  std::string_view SelfName = selfNameOf(S, Method);
  if (SelfName.empty())
    return;
  walk(field(Method, "body"), [&](TSNode N) {
    if (is(N, "assignment") || is(N, "augmented_assignment")) {
      TSNode L = unparen(field(N, "left"));
      std::vector<TSNode> Targets = {L};
      if (is(L, "pattern_list") || is(L, "tuple_pattern"))
        Targets = namedChildren(L);
      for (TSNode T : Targets) {
        // `self.slots[i] = v` stores into the attribute's container.
        if (is(T, "subscript") && is(N, "assignment"))
          T = unparen(field(T, "value"));
        if (is(T, "attribute") && S.text(field(T, "object")) == SelfName)
          Stores.insert(std::string(S.text(field(T, "attribute"))));
      }
    } else if (is(N, "call")) {
      TSNode Fn = unparen(field(N, "function"));
      TSNode Obj = is(Fn, "attribute") ? unparen(field(Fn, "object")) : TSNode{};
      if (is(Fn, "attribute") && S.text(Obj) == SelfName)
        Calls.insert(std::string(S.text(field(Fn, "attribute"))));
      // `super().m(...)`, `Base.m(self, ...)`: the overridden method runs too
      // (PyProgram::runsOn). Arguments are read only for calls of attributes.
      auto handsSelf = [&] {
        CallArgs A = argsOf(S, N);
        return !A.Positional.empty() && S.text(A.Positional[0]) == SelfName;
      };
      if (is(Fn, "attribute") &&
          ((is(Obj, "call") && S.text(field(Obj, "function")) == "super") || handsSelf()))
        Calls.insert(std::string(SuperCall) + std::string(S.text(field(Fn, "attribute"))));
    }
    return true;
  });
}

// The names a function declares `global`.
std::set<std::string, std::less<>> globalsOf(const PySource &S, TSNode Body) {
  std::set<std::string, std::less<>> Out;
  walk(Body, [&](TSNode N) {
    if (is(N, "global_statement"))
      for (TSNode C : namedChildren(N))
        Out.emplace(S.text(C));
    return true;
  });
  return Out;
}

// The callee of a call that may build a class's instance: named in
// CapWords, as classes are. Others (`x.item()`, `capturing()`) are left out
// of the index, so a body edit that changes only them keeps the module's
// interface, and every other module's result.
std::optional<std::string> constructorSpelling(const PySource &S, TSNode Call) {
  // `Block(cfg).to(device)`: the module set-up returns the module.
  for (TSNode Fn = unparen(field(Call, "function"));
       is(Fn, "attribute") && moduleReturnsItself(S.text(field(Fn, "attribute"))) &&
       is(unparen(field(Fn, "object")), "call");
       Fn = unparen(field(Call, "function")))
    Call = unparen(field(Fn, "object"));
  std::string Callee = dotted(S, field(Call, "function"));
  std::string Last = Callee.substr(Callee.rfind('.') + 1);
  if (Last.empty() || !std::isupper(static_cast<unsigned char>(Last[0])))
    return std::nullopt;
  return Callee;
}

// PyFunctionDef::ItemParams, from the uses of the parameters' names. A
// closure may read them all: where the function defines one, every
// parameter counts.
void noteItemParams(const PySource &S, PyFunctionDef &F) {
  std::vector<std::string_view> Params, Used;
  for (TSNode P : namedChildren(field(F.Node, "parameters"))) {
    TSNode Name = is(P, "list_splat_pattern") ? ts_node_named_child(P, 0) : parameterName(P);
    if (is(Name, "identifier"))
      Params.push_back(S.text(Name));
  }
  if (Params.empty())
    return;
  auto among = [](const std::vector<std::string_view> &Names, std::string_view Name) {
    return std::find(Names.begin(), Names.end(), Name) != Names.end();
  };
  bool Closure = false;
  walkWithParents(F.body(), [&](TSNode N, TSNode Up, TSNode) {
    if (Closure)
      return false;
    if (is(N, "function_definition") || is(N, "lambda")) {
      Closure = true;
      return false;
    }
    if (!is(N, "identifier"))
      return true;
    std::string_view Text = S.text(N);
    if (!among(Params, Text) || among(Used, Text))
      return false;
    auto at = [&](const char *Field) { return ts_node_eq(field(Up, Field), N); };
    if (((is(Up, "for_statement") || is(Up, "for_in_clause")) && at("right")) ||
        (is(Up, "subscript") && at("value")) || is(Up, "list_splat") || is(Up, "argument_list") ||
        (is(Up, "assignment") && at("right")))
      Used.push_back(Text);
    return false;
  });
  const auto &All = Closure ? Params : Used;
  F.ItemParams.assign(All.begin(), All.end());
}

void noteReturns(PyModuleInfo &M, PyFunctionDef &F) {
  const PySource &S = *M.Src;
  auto Globals = globalsOf(S, F.body());
  // Decorators first: a @staticmethod's first parameter is no self.
  if (TSNode Up = parentOf(F.Node); is(Up, "decorated_definition"))
    for (TSNode D : namedChildren(Up))
      if (is(D, "decorator")) {
        TSNode E = unparen(ts_node_named_child(D, 0));
        F.Decorators.push_back(ts_node_is_null(E) ? "?"
                               : is(E, "call")    ? dotted(S, field(E, "function")) + "()"
                               : is(E, "identifier") || is(E, "attribute") ? dotted(S, E)
                                                                           : "?");
      }
  if (!F.ClassQName.empty() &&
      std::find(F.Decorators.begin(), F.Decorators.end(), "staticmethod") != F.Decorators.end())
    F.NoSelf = selfNameOf(S, F.Node) != "ctx";
  std::vector<std::string> Params;
  for (TSNode P : callerParameters(F)) {
    TSNode Name = parameterName(P);
    Params.emplace_back(ts_node_is_null(Name) ? std::string_view() : S.text(Name));
  }
  std::set<std::string, std::less<>> Rebound;
  // Names rebound otherwise than keeping the object (ReturnsKeptParams).
  std::set<std::string, std::less<>> RebindsOther;
  auto keeps = [&](TSNode R, std::string_view Name) {
    if (!is(R, "call"))
      return false;
    TSNode Fn = unparen(field(R, "function"));
    if (is(Fn, "attribute") && is(unparen(field(Fn, "object")), "identifier") &&
        S.text(unparen(field(Fn, "object"))) == Name)
      return moduleReturnsItself(S.text(field(Fn, "attribute")));
    CallArgs A = argsOf(S, R);
    if ((!is(Fn, "identifier") && !is(Fn, "attribute")) || A.Positional.empty() ||
        !is(unparen(A.Positional[0]), "identifier") || S.text(unparen(A.Positional[0])) != Name)
      return false;
    F.KeptBy.emplace_back(S.text(Fn));
    return true;
  };
  bool PlainReturns = false, OtherReturns = false;
  std::set<std::string, std::less<>> NestedDefs;
  for (TSNode Stmt : namedChildren(F.body())) {
    if (is(Stmt, "decorated_definition"))
      Stmt = field(Stmt, "definition");
    if (is(Stmt, "function_definition"))
      NestedDefs.emplace(S.text(field(Stmt, "name")));
  }
  // Locals each bound only to constructor calls (`block = Block(...)`), for
  // `return block`; any other binding of the name makes it unknown.
  std::map<std::string, std::vector<std::string>, std::less<>> LocalsBuilt;
  std::set<std::string, std::less<>> LocalsOther, LocalsReturned;
  // Every value each local is bound to with `=`, and what is returned, for
  // the class objects the returns hold.
  std::map<std::string, std::vector<TSNode>, std::less<>> LocalValues;
  std::vector<TSNode> Returned, OwnReturned;
  // The elements of each tuple returned; a return of anything else (a bare
  // `return`, a call) leaves the positions unknown.
  std::vector<std::vector<TSNode>> TupleReturns;
  bool OtherThanTuples = false;
  // Locals bound otherwise than by `=` (unpacked, looped over, updated).
  std::set<std::string, std::less<>> BoundOtherwise;
  bool Yields = false;
  auto otherBinding = [&](TSNode Target) {
    walk(Target, [&](TSNode I) {
      if (is(I, "identifier")) {
        LocalsOther.emplace(S.text(I));
        RebindsOther.emplace(S.text(I));
        BoundOtherwise.emplace(S.text(I));
      }
      return !is(I, "attribute") && !is(I, "subscript");
    });
  };
  walk(F.body(), [&](TSNode N) {
    if (is(N, "assignment") || is(N, "augmented_assignment")) {
      TSNode L = unparen(field(N, "left"));
      if (is(L, "identifier")) {
        Rebound.emplace(S.text(L));
        if (!is(N, "assignment"))
          BoundOtherwise.emplace(S.text(L));
        TSNode R = unparen(field(N, "right"));
        if (std::find(Params.begin(), Params.end(), S.text(L)) == Params.end() ||
            !is(N, "assignment") || !keeps(R, S.text(L)))
          RebindsOther.emplace(S.text(L));
        if (is(N, "assignment"))
          LocalValues[std::string(S.text(L))].push_back(R);
        if (Globals.count(S.text(L)) && is(R, "call"))
          if (auto Built = constructorSpelling(S, R))
            M.GlobalsBuilt[std::string(S.text(L))].push_back(*Built);
        auto Built =
            is(N, "assignment") && is(R, "call") ? constructorSpelling(S, R) : std::nullopt;
        if (Built)
          LocalsBuilt[std::string(S.text(L))].push_back(*Built);
        else
          LocalsOther.emplace(S.text(L));
      } else {
        otherBinding(L);
      }
      return true;
    }
    Yields |= is(N, "yield");
    if (is(N, "for_statement") || is(N, "for_in_clause"))
      otherBinding(field(N, "left"));
    else if (is(N, "as_pattern_target") || is(N, "named_expression"))
      otherBinding(is(N, "named_expression") ? field(N, "name") : N);
    if (!is(N, "return_statement"))
      return true;
    TSNode V = unparen(ts_node_named_child(N, 0));
    Returned.push_back(V);
    // A nested function's returns are its own.
    TSNode Owner = parentOf(N);
    while (!ts_node_is_null(Owner) && !is(Owner, "function_definition") && !is(Owner, "lambda") &&
           !is(Owner, "class_definition"))
      Owner = parentOf(Owner);
    const bool Own = ts_node_is_null(Owner) || ts_node_eq(Owner, F.Node);
    F.Returns += Own;
    if (Own && (is(V, "expression_list") || is(V, "tuple")))
      TupleReturns.push_back(namedChildren(V));
    else if (Own)
      OtherThanTuples = true;
    bool Plain = is(V, "identifier") &&
                 ((!Params.empty() && !Params.front().empty() && S.text(V) == Params.front()) ||
                  NestedDefs.count(S.text(V)));
    (Plain ? PlainReturns : OtherReturns) = true;
    if (is(V, "call")) {
      if (auto Built = constructorSpelling(S, V))
        F.ReturnsBuilt.push_back(*Built);
    } else if (is(V, "identifier") && Globals.count(S.text(V)))
      F.ReturnsBuilt.push_back("global:" + std::string(S.text(V)));
    else if (is(V, "identifier"))
      LocalsReturned.emplace(S.text(V));
    if (Own)
      OwnReturned.push_back(V);
    return false;
  });
  auto builtLocal = [&](std::string_view Name) -> const std::vector<std::string> * {
    auto It = LocalsBuilt.find(Name);
    if (It == LocalsBuilt.end() || LocalsOther.count(Name) ||
        std::find(Params.begin(), Params.end(), Name) != Params.end())
      return nullptr;
    return &It->second;
  };
  for (const auto &Name : LocalsReturned)
    if (const auto *Built = builtLocal(Name))
      F.ReturnsBuilt.insert(F.ReturnsBuilt.end(), Built->begin(), Built->end());
  // `model = Net().cuda(); ...; return model, optimizer`: what each position
  // holds, where every return builds it.
  const size_t Arity = TupleReturns.empty() ? 0 : TupleReturns.front().size();
  if (!OtherThanTuples && std::all_of(TupleReturns.begin(), TupleReturns.end(),
                                      [&](const auto &T) { return T.size() == Arity; })) {
    F.ReturnsElementsBuilt.assign(Arity, {});
    for (size_t I = 0; I < Arity; ++I) {
      std::vector<std::string> Classes;
      bool Known = true;
      for (const auto &T : TupleReturns) {
        TSNode E = unparen(T[I]);
        std::optional<std::string> Built;
        const std::vector<std::string> *Local =
            is(E, "identifier") ? builtLocal(S.text(E)) : nullptr;
        if (is(E, "call") && (Built = constructorSpelling(S, E)))
          Classes.push_back(*Built);
        else if (Local)
          Classes.insert(Classes.end(), Local->begin(), Local->end());
        else
          Known = false;
      }
      if (Known)
        F.ReturnsElementsBuilt[I] = std::move(Classes);
    }
    while (!F.ReturnsElementsBuilt.empty() && F.ReturnsElementsBuilt.back().empty())
      F.ReturnsElementsBuilt.pop_back();
  }
  // Parameters handed back as the caller passed them, or kept by every
  // rebinding: a call's argument is what such a return gives it back.
  auto keptParameter = [&](TSNode E) {
    E = unparen(E);
    for (unsigned I = 0; is(E, "identifier") && I < Params.size(); ++I)
      if (!Params[I].empty() && Params[I] == S.text(E) && !RebindsOther.count(Params[I]))
        return static_cast<int>(I);
    return -1;
  };
  for (TSNode V : OwnReturned)
    if (int I = keptParameter(V); I >= 0) {
      auto &Into = Rebound.count(Params[I]) ? F.ReturnsKeptParams : F.ReturnsParams;
      if (std::find(Into.begin(), Into.end(), static_cast<unsigned>(I)) == Into.end())
        Into.push_back(I);
    }
  // `elif callable(sampler): sampler = sampler()` before `return sampler`:
  // on the paths that do not call it, what the caller passed comes back. A
  // parameter rebound to anything else (`model = model.module`) is not
  // taken for the argument.
  auto rebuiltByItsCall = [&](std::string_view Name) {
    auto Values = LocalValues.find(Name);
    if (BoundOtherwise.count(Name) || Values == LocalValues.end())
      return false;
    return std::all_of(Values->second.begin(), Values->second.end(), [&](TSNode R) {
      TSNode Fn = is(R, "call") ? unparen(field(R, "function")) : TSNode{};
      return is(Fn, "identifier") && S.text(Fn) == Name;
    });
  };
  for (TSNode V : OwnReturned)
    for (unsigned I = 0; is(unparen(V), "identifier") && I < Params.size(); ++I)
      if (!Params[I].empty() && Params[I] == S.text(unparen(V)) && RebindsOther.count(Params[I]) &&
          rebuiltByItsCall(Params[I]) &&
          std::find(F.ReturnsRebuiltParams.begin(), F.ReturnsRebuiltParams.end(), I) ==
              F.ReturnsRebuiltParams.end())
        F.ReturnsRebuiltParams.push_back(I);
  if (!OtherThanTuples && !TupleReturns.empty()) {
    F.ReturnsElementsParams.assign(Arity, -1);
    for (size_t I = 0; I < Arity; ++I) {
      int Kept = I < TupleReturns.front().size() ? keptParameter(TupleReturns.front()[I]) : -1;
      for (const auto &T : TupleReturns)
        if (I >= T.size() || keptParameter(T[I]) != Kept)
          Kept = -1;
      F.ReturnsElementsParams[I] = Kept;
    }
    while (!F.ReturnsElementsParams.empty() && F.ReturnsElementsParams.back() < 0)
      F.ReturnsElementsParams.pop_back();
  }
  if (F.ReturnsKeptParams.empty() && F.ReturnsElementsParams.empty())
    F.KeptBy.clear();
  // Every return a call's result (ReturnsCalls): falling off the end gives
  // None, a generator's returns are not its value.
  bool OnlyCalls = !Yields && !OwnReturned.empty() && !F.IsLambda && leavesFunction(F.body());
  for (size_t I = 0; OnlyCalls && I < OwnReturned.size(); ++I) {
    TSNode V = unparen(OwnReturned[I]);
    auto Values = is(V, "identifier") && !BoundOtherwise.count(S.text(V))
                      ? LocalValues.find(S.text(V))
                      : LocalValues.end();
    std::vector<TSNode> Calls = {V};
    if (Values != LocalValues.end())
      Calls = Values->second;
    for (TSNode C : Calls) {
      C = unparen(C);
      OnlyCalls &= is(C, "call");
      if (OnlyCalls)
        F.ReturnsCalls.push_back(dotted(S, field(C, "function")));
    }
  }
  if (!OnlyCalls)
    F.ReturnsCalls.clear();
  std::sort(F.ReturnsCalls.begin(), F.ReturnsCalls.end());
  F.ReturnsCalls.erase(std::unique(F.ReturnsCalls.begin(), F.ReturnsCalls.end()),
                       F.ReturnsCalls.end());
  // The one value a local is bound to, for an argument read through it.
  auto onlyValue = [&](TSNode E) {
    E = unparen(E);
    if (is(E, "identifier"))
      if (auto It = LocalValues.find(S.text(E)); It != LocalValues.end() && It->second.size() == 1)
        return unparen(It->second.front());
    return E;
  };
  std::function<void(TSNode, int, std::vector<std::string> &)> classSpellings =
      [&](TSNode E, int Depth, std::vector<std::string> &Out) {
        E = unparen(E);
        if (ts_node_is_null(E) || Depth > 4)
          return;
        if (is(E, "identifier") && LocalValues.count(S.text(E))) {
          for (TSNode R : LocalValues.find(S.text(E))->second)
            classSpellings(R, Depth + 1, Out);
        } else if ((is(E, "identifier") &&
                    std::find(Params.begin(), Params.end(), S.text(E)) == Params.end()) ||
                   is(E, "attribute")) {
          Out.push_back(dotted(S, E));
        } else if (is(E, "call")) {
          TSNode Fn = unparen(field(E, "function"));
          std::string Callee = dotted(S, Fn);
          CallArgs A = argsOf(S, E);
          if ((Callee == "partial" || Callee == "functools.partial") && !A.Positional.empty())
            classSpellings(A.Positional[0], Depth + 1, Out);
          else if (Callee == "getattr" && A.Positional.size() >= 2) {
            if (auto Spelled = importedClassSpelling(S, onlyValue(A.Positional[0]),
                                                     onlyValue(A.Positional[1])))
              Out.push_back(std::move(*Spelled));
          } else if (is(Fn, "identifier") || is(Fn, "attribute")) {
            // Whatever class objects that function's returns hold (a
            // registry's lookup handed on: `return Registry._get_model(a)`).
            Out.push_back(std::string(ReturnedByCall) + Callee);
          }
        } else if (is(E, "conditional_expression")) {
          auto Parts = namedChildren(E);
          if (Parts.size() == 3) {
            classSpellings(Parts[0], Depth + 1, Out);
            classSpellings(Parts[2], Depth + 1, Out);
          }
        }
      };
  auto sorted = [](std::vector<std::string> &V) {
    std::sort(V.begin(), V.end());
    V.erase(std::unique(V.begin(), V.end()), V.end());
  };
  for (TSNode V : Returned)
    classSpellings(V, 0, F.ReturnsClassObjects);
  sorted(F.ReturnsClassObjects);
  // `return (model_cls, arch)`: the class objects each position holds.
  if (!OtherThanTuples && !TupleReturns.empty()) {
    F.ReturnsElementClassObjects.assign(Arity, {});
    for (const auto &T : TupleReturns)
      for (size_t I = 0; I < Arity && I < T.size(); ++I)
        classSpellings(T[I], 0, F.ReturnsElementClassObjects[I]);
    for (auto &Spelled : F.ReturnsElementClassObjects)
      sorted(Spelled);
    while (!F.ReturnsElementClassObjects.empty() && F.ReturnsElementClassObjects.back().empty())
      F.ReturnsElementClassObjects.pop_back();
  }
  F.PlainDecorator = F.ClassQName.empty() && !Params.empty() && PlainReturns && !OtherReturns &&
                     !Rebound.count(Params.front());
  walk(F.IsLambda ? F.Node : F.body(), [&](TSNode N) {
    if ((F.MentionsCapture && F.MentionsDevice) || is(N, "function_definition") ||
        is(N, "class_definition"))
      return false;
    if (is(N, "identifier")) {
      std::string Name(S.text(N));
      F.MentionsDevice |=
          Name.size() >= 12 && Name.compare(Name.size() - 10, 10, "_available") == 0;
      std::transform(Name.begin(), Name.end(), Name.begin(),
                     [](unsigned char C) { return std::tolower(C); });
      F.MentionsCapture |=
          Name.find("captur") != std::string::npos || Name.find("graph") != std::string::npos;
    }
    return true;
  });
}

// What a dotted spelling names through the module's own imports
// (`cv.ContextVar` after `import contextvars as cv`), before linking; ""
// where its head is no import.
std::string importedName(const PyModuleInfo &M, const std::string &Spelled) {
  auto Import = M.Imports.find(Spelled.substr(0, Spelled.find('.')));
  return Import == M.Imports.end() ? "" : Import->second + Spelled.substr(Import->first.size());
}

void noteGetter(const PySource &S, PyFunctionDef &F) {
  if (!F.ClassQName.empty() || F.IsLambda || !callerParameters(F).empty())
    return;
  bool Returns = false, Other = false;
  walk(F.body(), [&](TSNode N) {
    if (Other || isScope(N))
      return false;
    if (!is(N, "return_statement"))
      return true;
    TSNode V = unparen(ts_node_named_child(N, 0));
    TSNode Fn = is(V, "call") ? unparen(field(V, "function")) : TSNode{};
    Returns = true;
    Other =
        !is(V, "identifier") && !(is(Fn, "attribute") && S.text(field(Fn, "attribute")) == "get" &&
                                  is(unparen(field(Fn, "object")), "identifier"));
    return false;
  });
  F.MayGetGlobal = Returns && !Other;
}

void indexScope(PyModuleInfo &M, TSNode Body, const std::string &Prefix,
                const std::string &ClassQName, bool TopLevel) {
  const PySource &S = *M.Src;
  walk(Body, [&](TSNode N) {
    if (ts_node_eq(N, Body))
      return true;
    if (is(N, "import_statement") || is(N, "import_from_statement")) {
      // Imports inside functions bind there; one table is precise enough.
      indexImports(M, N);
      return false;
    }
    if (is(N, "call")) {
      TSNode Fn = field(N, "function");
      std::string_view Name = S.text(is(Fn, "attribute") ? field(Fn, "attribute") : Fn);
      if (Name == "register_generator_state") {
        CallArgs A = argsOf(S, N);
        if (!A.Positional.empty())
          M.RegisteredGenerators.insert(std::string(S.text(A.Positional[0])));
      }
      // `with torch.device("cuda"):` too; `torch.cuda.device(i)` picks a GPU.
      M.SetsDefaultDevice |= Name == "set_default_device" || Name == "set_default_tensor_type" ||
                             (S.text(Fn) == "torch.device" && is(parentOf(N), "with_item"));
      return true;
    }
    if (is(N, "lambda")) {
      PyFunctionDef F;
      F.Name = "<lambda>";
      F.QualName = lambdaName(M.Module, S, N);
      F.Node = N;
      F.IsLambda = true;
      if (TSNode Body = unparen(field(N, "body")); is(Body, "identifier")) {
        auto Params = callerParameters(F);
        for (unsigned I = 0; I < Params.size(); ++I)
          if (TSNode Name = parameterName(Params[I]);
              !ts_node_is_null(Name) && S.text(Name) == S.text(Body))
            F.ReturnsParams.push_back(I);
      }
      M.Functions.push_back(F);
      indexScope(M, N, F.QualName, "", false);
      return false;
    }
    if (is(N, "decorated_definition")) {
      TSNode D = field(N, "definition");
      N = D;
    }
    if (is(N, "function_definition")) {
      std::string Name(S.text(field(N, "name")));
      PyFunctionDef F;
      F.Name = Name;
      F.QualName = Prefix + "." + Name;
      F.ClassQName = ClassQName;
      F.Node = N;
      noteReturns(M, F);
      noteItemParams(S, F);
      noteGetter(S, F);
      M.Functions.push_back(F);
      if (TopLevel)
        M.Defs[Name] = F.QualName;
      if (!ClassQName.empty()) {
        PyClassDef &Class = M.Classes[ClassQName];
        Class.Methods.insert(Name);
        std::set<std::string> &Stores = Class.StoresBy[Name];
        noteSelfEffects(S, N, Stores, Class.SelfCallsBy[Name]);
        Class.AssignedAttrs.insert(Stores.begin(), Stores.end());
      }
      indexScope(M, field(N, "body"), F.QualName, "", false);
      return false;
    }
    if (is(N, "class_definition")) {
      std::string Name(S.text(field(N, "name")));
      PyClassDef C;
      C.QualName = Prefix + "." + Name;
      C.Node = N;
      C.Module = &M;
      if (TSNode Sup = field(N, "superclasses"); !ts_node_is_null(Sup))
        for (TSNode B : namedChildren(Sup))
          if (!is(B, "keyword_argument"))
            C.Bases.push_back(dotted(S, B));
      for (TSNode Stmt : namedChildren(field(N, "body"))) {
        TSNode A = ts_node_named_child(Stmt, 0);
        if (!is(Stmt, "expression_statement") || !is(A, "assignment"))
          continue;
        TSNode L = field(A, "left"), R = field(A, "right");
        if (is(L, "identifier") && (is(R, "identifier") || is(R, "attribute")))
          C.ClassLevelNames[std::string(S.text(L))] = dotted(S, R);
      }
      M.Classes[C.QualName] = C;
      if (TopLevel)
        M.Defs[Name] = C.QualName;
      indexScope(M, field(N, "body"), C.QualName, C.QualName, false);
      return false;
    }
    return true;
  });
}

} // namespace

std::string scopeName(const std::string &Module, const PySource &S, TSNode N) {
  // A default value or a decorator is evaluated in the scope around the
  // definition, not in its body.
  for (TSNode Prev = N, P = parentOf(N); !ts_node_is_null(P); Prev = P, P = parentOf(P)) {
    if (!ts_node_eq(Prev, field(P, "body")))
      continue;
    if (is(P, "function_definition") || is(P, "class_definition"))
      return scopeName(Module, S, P) + "." + std::string(S.text(field(P, "name")));
    if (is(P, "lambda"))
      return lambdaName(Module, S, P);
  }
  return Module;
}

std::string lambdaName(const std::string &Module, const PySource &S, TSNode Lambda) {
  return scopeName(Module, S, Lambda) + ".<lambda:" + std::to_string(beginOf(Lambda)) + ">";
}

std::vector<TSNode> callerParameters(const PyFunctionDef &F) {
  std::vector<TSNode> Out;
  if (F.IsModuleBody)
    return Out;
  TSNode Params = field(F.Node, "parameters");
  if (ts_node_is_null(Params))
    return Out;
  bool First = F.takesSelf();
  for (TSNode Param : namedChildren(Params)) {
    bool Self = First;
    First = false;
    if (is(Param, "list_splat_pattern") || is(Param, "dictionary_splat_pattern") ||
        is(Param, "keyword_separator") || is(Param, "positional_separator") || Self)
      continue;
    Out.push_back(Param);
  }
  return Out;
}

std::string_view selfNameOf(const PySource &S, TSNode Method) {
  TSNode Params = field(Method, "parameters");
  TSNode First = ts_node_is_null(Params) ? TSNode{} : ts_node_named_child(Params, 0);
  TSNode Self = ts_node_is_null(First) ? TSNode{} : parameterName(First);
  return ts_node_is_null(Self) ? std::string_view() : S.text(Self);
}

std::vector<std::string> parameterNames(const PySource &S, const PyFunctionDef &F) {
  std::vector<std::string> Out;
  for (TSNode Param : callerParameters(F)) {
    TSNode Name = parameterName(Param);
    Out.push_back(ts_node_is_null(Name) ? "" : std::string(S.text(Name)));
  }
  return Out;
}

namespace {
thread_local PyReads *CurrentReads = nullptr;

void noteRead(const PyModuleInfo &M, PyPart Kind, const std::string &Name = "") {
  if (!CurrentReads)
    return;
  CurrentReads->Modules.insert(M.Path);
  CurrentReads->Parts.push_back(partKey(Kind, M.Path, Name));
}
} // namespace

PyProgram::ReadLog::ReadLog(PyReads &Into) : Outer(CurrentReads) { CurrentReads = &Into; }
PyProgram::ReadLog::~ReadLog() {
  std::vector<std::uint64_t> &Parts = CurrentReads->Parts;
  std::sort(Parts.begin(), Parts.end());
  Parts.erase(std::unique(Parts.begin(), Parts.end()), Parts.end());
  CurrentReads = Outer;
}

bool PyProgram::moduleAttrStored(const std::string &QName) const {
  // Each store as its module spells it, resolved through that module's own
  // imports (a script's folder first, a root's alias).
  for (const auto &M : Modules)
    for (const auto &Stored : M->ModuleAttrStores)
      if (qualify(*M, Stored) == QName)
        return true;
  return false;
}

const PyModuleInfo &PyProgram::tree(const PyModuleInfo &M) const {
  noteRead(M, PyPart::Module);
  return parsed(M);
}

const PyModuleInfo &PyProgram::classTree(const PyClassDef &C) const {
  // Typing its methods reads the module's globals too.
  noteRead(*C.Module, PyPart::Class, C.QualName);
  noteRead(*C.Module, PyPart::TopLevel);
  return parsed(*C.Module);
}

std::pair<const PyFunctionDef *, const PyModuleInfo *>
PyProgram::readFunction(const std::pair<const PyFunctionDef *, const PyModuleInfo *> &Def,
                        bool SignatureOnly) const {
  const auto &[F, M] = Def;
  if (SignatureOnly) {
    noteRead(*M, PyPart::Signature, F->QualName);
  } else {
    noteRead(*M, PyPart::Function, F->QualName);
    noteRead(*M, PyPart::TopLevel);
  }
  return {F, &parsed(*M)};
}

const PyModuleInfo &PyProgram::parsed(const PyModuleInfo &M) const {
  // The program owns its modules; only their trees are filled in, once, and
  // no one reads a node before this returns.
  auto &Mut = const_cast<PyModuleInfo &>(M);
  std::call_once(Mut.TreeOnce, [&] {
    if (Mut.Src)
      return;
    PyModuleInfo Fresh;
    Fresh.Path = M.Path;
    Fresh.Module = M.Module;
    Fresh.Package = M.Package;
    std::string Error;
    Fresh.Src = PySource::parse(M.Path, std::move(Mut.Text), Error);
    if (!Fresh.Src)
      return;
    indexModule(Fresh);
    // The same text gives the same index, in the same order.
    for (size_t I = 0; I < Mut.Functions.size() && I < Fresh.Functions.size(); ++I)
      Mut.Functions[I].Node = Fresh.Functions[I].Node;
    for (auto &[Name, C] : Mut.Classes)
      if (auto It = Fresh.Classes.find(Name); It != Fresh.Classes.end())
        C.Node = It->second.Node;
    Mut.Src = std::move(Fresh.Src);
  });
  return M;
}

// Adds to M.SpelledNames what N spells that can name a method: an
// attribute's name, a string that is one name or part of one (`"set_"` of
// `"set_" + kind`), and the names a class body uses outside its methods
// (`reset = clear`, `property(get_x)`).
void spellNames(PyModuleInfo &M, TSNode N) {
  const PySource &S = *M.Src;
  if (is(N, "attribute")) {
    // `actor.set_storage.remote(s)` (Ray): the method runs in the actor's
    // process, on the actor's own object, never on one built here.
    TSNode Up = ts_node_parent(N);
    if (is(Up, "attribute") && ts_node_eq(field(Up, "object"), N) &&
        isAnyOf(field(Up, "attribute"), "identifier") &&
        (S.text(field(Up, "attribute")) == "remote" || S.text(field(Up, "attribute")) == "options"))
      return;
    M.SpelledNames.emplace(S.text(field(N, "attribute")));
    return;
  }
  if (is(N, "string_content")) {
    std::string_view Text = S.text(N);
    if (Text.empty() || Text.size() > 80 || !std::all_of(Text.begin(), Text.end(), [](char C) {
          return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
        }))
      return;
    // A string that is part of a name built at run time (an f-string's
    // text, an operand of `+` or `%`) is kept marked: a part of some name.
    TSNode Str = ts_node_parent(N);
    TSNode Up = ts_node_parent(Str);
    bool Part = ts_node_named_child_count(Str) > 3 || is(Up, "binary_operator");
    M.SpelledNames.emplace((Part ? std::string(1, PyModuleInfo::PartOfName) : std::string()) +
                           std::string(Text));
    return;
  }
  walkWithDepth(field(N, "body"), [&](TSNode Inner, unsigned) {
    if (isAnyOf(Inner, "function_definition", "class_definition"))
      return false;
    if (is(Inner, "identifier"))
      M.SpelledNames.emplace(S.text(Inner));
    return true;
  });
}

void indexModule(PyModuleInfo &M) {
  PyFunctionDef Body;
  Body.QualName = M.Module + ".<module>";
  Body.Name = "<module>";
  Body.Node = M.Src->root();
  Body.IsModuleBody = true;
  M.Functions.push_back(Body);
  indexScope(M, M.Src->root(), M.Module, "", true);
  // Other modules' globals assigned through their module, in any scope;
  // the names the code spells where a method can be named.
  walkWithDepth(M.Src->root(), [&](TSNode N, unsigned) {
    if (isAnyOf(N, "attribute", "string_content", "class_definition")) {
      spellNames(M, N);
      return true;
    }
    if (!is(N, "assignment") && !is(N, "augmented_assignment"))
      return true;
    TSNode Target = unparen(field(N, "left"));
    if (TSNode Of = is(Target, "attribute") ? unparen(field(Target, "object")) : TSNode{};
        is(Of, "identifier"))
      if (M.Imports.count(std::string(M.Src->text(Of))))
        M.ModuleAttrStores.insert(std::string(M.Src->text(Target)));
    return true;
  });
  // A global's top-level assignments count with those of the functions
  // that declare it.
  walk(M.Src->root(), [&](TSNode N) {
    if (!is(N, "assignment"))
      return true;
    TSNode L = unparen(field(N, "left")), R = unparen(field(N, "right"));
    if (is(L, "identifier") && is(R, "call"))
      if (auto It = M.GlobalsBuilt.find(std::string(M.Src->text(L))); It != M.GlobalsBuilt.end())
        if (auto Built = constructorSpelling(*M.Src, R))
          It->second.push_back(*Built);
    return true;
  });
  // The first top-level binding of a name decides whether it is a ContextVar.
  std::set<std::string, std::less<>> Bound;
  for (TSNode Stmt : namedChildren(M.Src->root())) {
    TSNode A = is(Stmt, "expression_statement") ? ts_node_named_child(Stmt, 0) : TSNode{};
    TSNode L = is(A, "assignment") ? unparen(field(A, "left")) : TSNode{};
    if (!is(L, "identifier") || !Bound.emplace(M.Src->text(L)).second)
      continue;
    TSNode R = unparen(field(A, "right"));
    if (is(R, "call") &&
        importedName(M, dotted(*M.Src, field(R, "function"))) == "contextvars.ContextVar")
      M.ContextVars.emplace(M.Src->text(L));
  }
  // ReturnsCalls keeps only what may be a tensor: a torch function that
  // gives none (`torch.cuda.is_current_stream_capturing()`) rules the
  // function out here, so that an edit among such returns leaves the
  // module's interface as it was.
  for (auto &F : M.Functions)
    for (const auto &Spelled : F.ReturnsCalls) {
      std::string Q = importedName(M, Spelled);
      if (Q.empty())
        continue;
      auto Declared = torchReturnKind(Q);
      if (Q.rfind("torch.", 0) == 0 && !(Declared && *Declared == TorchKind::Tensor) &&
          Q.rfind("torch.nn.functional.", 0) != 0) {
        F.ReturnsCalls.clear();
        break;
      }
    }
}

void PyLearned::merge(const PyLearned &Other) {
  auto mergeTable = [](ByParameter &Into, const ByParameter &From) {
    for (const auto &[F, ByIndex] : From)
      for (const auto &[Index, Cs] : ByIndex)
        Into[F][Index].insert(Cs.begin(), Cs.end());
  };
  Graphed.insert(Other.Graphed.begin(), Other.Graphed.end());
  for (const auto &[F, Is] : Other.GraphedParams)
    GraphedParams[F].insert(Is.begin(), Is.end());
  for (const auto &[F, Is] : Other.TensorParams)
    TensorParams[F].insert(Is.begin(), Is.end());
  mergeTable(Classes, Other.Classes);
  mergeTable(SuperClasses, Other.SuperClasses);
  mergeTable(ClassObjects, Other.ClassObjects);
  mergeTable(ElementClasses, Other.ElementClasses);
  mergeTable(InexactElementClasses, Other.InexactElementClasses);
  mergeTable(InexactClasses, Other.InexactClasses);
  HandsOn.insert(Other.HandsOn.begin(), Other.HandsOn.end());
  Built.insert(Other.Built.begin(), Other.Built.end());
  for (const auto &[Path, Classes] : Other.BuiltIn)
    BuiltIn[Path].insert(Classes.begin(), Classes.end());
  TensorLearningRates.insert(Other.TensorLearningRates.begin(), Other.TensorLearningRates.end());
  for (const auto &[F, Is] : Other.Swaps)
    Swaps[F].insert(Is.begin(), Is.end());
  SwappedClasses.insert(Other.SwappedClasses.begin(), Other.SwappedClasses.end());
}

bool PyProgram::tensorLearningRates(const PyModuleInfo &M) const {
  const auto &In = Learned.TensorLearningRates;
  if (In.empty())
    return false;
  if (In.count(M.Module))
    return true;
  // An import names the module, or something in it.
  for (const auto &[Name, Q] : M.Imports)
    for (size_t Dot = Q.size(); Dot != std::string::npos && Dot > 0; Dot = Q.rfind('.', Dot - 1))
      if (In.count(Q.substr(0, Dot)))
        return true;
  return false;
}

void PyProgram::link() {
  for (const auto &M : Modules) {
    ByModule[M->Module] = M.get();
    for (const auto &F : M->Functions) {
      FunctionNames.insert(F.QualName);
      FunctionByName.emplace(F.QualName, std::make_pair(&F, M.get()));
      if (F.MentionsCapture)
        CaptureNames.insert(F.Name);
    }
    for (const auto &Alias : M->Aliases) {
      auto [It, New] = ByAlias.emplace(Alias, M.get());
      if (!New && It->second != M.get())
        It->second = nullptr;
    }
  }
  // A module of a prefixed tree imports from its own tree when the module
  // is there, else from the unprefixed ones.
  for (auto &M : Modules) {
    if (M->RootPrefix.empty())
      continue;
    auto Own = [&](const std::string &Q) {
      std::string Candidate = M->RootPrefix + Q;
      for (size_t Cut = Candidate.size(); Cut != std::string::npos && Cut > M->RootPrefix.size();
           Cut = Candidate.rfind('.', Cut - 1))
        if (ByModule.count(Candidate.substr(0, Cut)))
          return true;
      return false;
    };
    for (auto &[Local, Q] : M->Imports)
      if (Q.rfind(M->RootPrefix, 0) != 0 && Own(Q))
        Q = M->RootPrefix + Q;
    std::set<std::string> Prefixed;
    for (const auto &D : M->ImportedModules)
      Prefixed.insert(D.rfind(M->RootPrefix, 0) != 0 && Own(D) ? M->RootPrefix + D : D);
    M->ImportedModules = std::move(Prefixed);
  }
  bindSiblingImports();
  bindStarImports();
  for (auto &M : Modules)
    for (auto &[Name, C] : M->Classes) {
      // Bases and class-level names are spelled in the defining module:
      // resolve them through its imports.
      auto Qualify = [&](std::string &B) {
        std::string Head = B.substr(0, B.find('.'));
        std::string Tail = B.size() > Head.size() ? B.substr(Head.size()) : "";
        if (auto It = M->Imports.find(Head); It != M->Imports.end())
          B = It->second + Tail;
        else if (auto D = M->Defs.find(Head); D != M->Defs.end())
          B = D->second + Tail;
        B = canonical(B);
      };
      for (auto &B : C.Bases)
        Qualify(B);
      for (auto &[Attr, B] : C.ClassLevelNames)
        Qualify(B);
      ClassByName[Name] = &C;
      ClassIndex[Name] = &C;
    }
  for (const auto &[Name, C] : ClassByName) {
    std::set<std::string> Visiting;
    linearize(Name, Visiting);
  }
  for (const auto &[Name, C] : ClassByName) {
    for (const auto &[Attr, Named] : C->ClassLevelNames)
      ClassLevelAttrs.insert(Attr);
    for (const auto &B : C->Bases)
      if (B != Name)
        Subclasses[B].push_back(Name);
  }
  for (const auto &[Name, Subs] : Subclasses)
    Descendants[Name] = findDescendants(Name);
  for (const auto &[Name, C] : ClassByName) {
    for (const auto &A : ancestors(Name))
      AssignedBelow[A].insert(C->AssignedAttrs.begin(), C->AssignedAttrs.end());
    for (const auto &[Method, Attrs] : C->StoresBy)
      if (Method != "__init__")
        MethodStores[Method].insert(Attrs.begin(), Attrs.end());
  }
  findNeverNamed();
  // A method stores what the methods it calls on self store, by name: until
  // nothing changes (each round adds at least one attribute, and there are
  // finitely many).
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Name, C] : ClassByName)
      for (const auto &[Method, Calls] : C->SelfCallsBy) {
        if (Method == "__init__")
          continue;
        for (const auto &Callee : Calls) {
          auto It = MethodStores.find(Callee);
          if (It == MethodStores.end() || Callee == Method)
            continue;
          // std::map keeps It valid while Method's entry is added.
          auto &Mine = MethodStores[Method];
          for (const auto &A : It->second)
            Changed |= Mine.insert(A).second;
        }
      }
  }
  // A process that sets the default device runs the modules it imports
  // under it.
  std::vector<const PyModuleInfo *> Work;
  for (const auto &M : Modules)
    if (M->SetsDefaultDevice && DefaultDeviceIn.insert(M.get()).second)
      Work.push_back(M.get());
  while (!Work.empty()) {
    const PyModuleInfo *M = Work.back();
    Work.pop_back();
    std::vector<std::string> Names(M->ImportedModules.begin(), M->ImportedModules.end());
    for (const auto &[Local, Q] : M->Imports)
      Names.push_back(Q);
    // An imported name's module: its longest prefix that names one.
    for (std::string Q : Names)
      while (!Q.empty()) {
        if (const PyModuleInfo *Into = moduleFor(Q)) {
          if (DefaultDeviceIn.insert(Into).second)
            Work.push_back(Into);
          break;
        }
        size_t Dot = Q.rfind('.');
        Q.resize(Dot == std::string::npos ? 0 : Dot);
      }
  }
}

std::vector<std::string> PyProgram::dispatch(const std::string &Class, const std::string &Method,
                                             bool Exact) const {
  if (Exact) {
    std::string Base = methodOf(Class, Method);
    return Base.empty() ? std::vector<std::string>{} : std::vector<std::string>{Base};
  }
  {
    std::lock_guard<std::mutex> Lock(DispatchMutex);
    if (auto It = DispatchMemo.find({Class, Method}); It != DispatchMemo.end())
      return It->second;
  }
  std::vector<std::string> Out;
  std::string Base = methodOf(Class, Method);
  if (!Base.empty())
    Out.push_back(Base);
  // Rapid type analysis: an override runs only on instances of a class
  // below it that the program builds (an annotation naming a base does not
  // make every subclass in the tree a candidate). Where the program builds
  // no instance of the class or of anything below it, its objects come from
  // code not analysed (a registry that imports model classes by name, a
  // configuration): every override may run, as the class hierarchy says.
  auto Descendants = descendants(Class);
  bool NoneBuilt = BuiltKnown && !built(Class) &&
                   std::none_of(Descendants.begin(), Descendants.end(),
                                [&](const std::string &Below) { return built(Below); });
  for (const auto &Sub : Descendants) {
    const PyClassDef *D = classNamed(Sub);
    if (!D || !D->Methods.count(Method))
      continue;
    bool Runs = !BuiltKnown || NoneBuilt || built(Sub) ||
                std::any_of(Descendants.begin(), Descendants.end(), [&](const std::string &Below) {
                  return built(Below) && methodOf(Below, Method) == Sub + "." + Method;
                });
    if (Runs)
      Out.push_back(Sub + "." + Method);
  }
  std::lock_guard<std::mutex> Lock(DispatchMutex);
  DispatchMemo.emplace(std::make_pair(Class, Method), Out);
  return Out;
}

std::vector<std::string> PyProgram::descendants(const std::string &Class) const {
  auto It = Descendants.find(Class);
  return It == Descendants.end() ? std::vector<std::string>{} : It->second;
}

std::vector<std::string> PyProgram::findDescendants(const std::string &Class) const {
  std::vector<std::string> Out;
  std::set<std::string> Seen = {Class};
  std::vector<std::string> Down = {Class};
  while (!Down.empty()) {
    std::string C = std::move(Down.back());
    Down.pop_back();
    auto It = Subclasses.find(C);
    if (It == Subclasses.end())
      continue;
    for (const auto &Sub : It->second)
      if (Seen.insert(Sub).second) {
        Down.push_back(Sub);
        Out.push_back(Sub);
      }
  }
  return Out;
}

const std::vector<std::string> &PyProgram::linearize(const std::string &Class,
                                                     std::set<std::string> &Visiting) {
  if (auto It = Mro.find(Class); It != Mro.end())
    return It->second;
  const PyClassDef *D = classNamed(Class);
  if (!D || !Visiting.insert(Class).second) // a library class, or a cycle
    return Mro.emplace(Class, std::vector<std::string>{Class}).first->second;
  // C3, as CPython orders bases: each base's order, then the bases in the
  // order written, merged so that a class comes before its bases.
  std::vector<std::vector<std::string>> Seqs;
  for (const auto &B : D->Bases)
    if (B != Class)
      Seqs.push_back(linearize(B, Visiting));
  Seqs.push_back({});
  for (const auto &B : D->Bases)
    if (B != Class)
      Seqs.back().push_back(B);
  std::vector<std::string> Out = {Class};
  for (;;) {
    Seqs.erase(std::remove_if(Seqs.begin(), Seqs.end(), [](const auto &S) { return S.empty(); }),
               Seqs.end());
    if (Seqs.empty())
      break;
    std::string Next;
    for (const auto &S : Seqs) {
      bool InTail = std::any_of(Seqs.begin(), Seqs.end(), [&](const auto &Other) {
        return std::find(Other.begin() + 1, Other.end(), S.front()) != Other.end();
      });
      if (!InTail) {
        Next = S.front();
        break;
      }
    }
    if (Next.empty()) {
      // No consistent order (CPython raises TypeError): depth first, left
      // to right, each class once.
      for (const auto &S : Seqs)
        for (const auto &C : S)
          if (std::find(Out.begin(), Out.end(), C) == Out.end())
            Out.push_back(C);
      break;
    }
    Out.push_back(Next);
    for (auto &S : Seqs)
      if (S.front() == Next)
        S.erase(S.begin());
  }
  Visiting.erase(Class);
  return Mro[Class] = std::move(Out);
}

std::vector<std::string> PyProgram::ancestors(const std::string &Class) const {
  std::vector<std::string> Out;
  auto It = Mro.find(Class);
  if (It == Mro.end())
    return Out;
  for (const auto &C : It->second)
    if (classNamed(C))
      Out.push_back(C);
  return Out;
}

std::vector<std::string> PyProgram::libraryBases(const std::string &Class) const {
  std::vector<std::string> Out;
  if (auto It = Mro.find(Class); It != Mro.end())
    for (const auto &C : It->second)
      if (!classNamed(C))
        Out.push_back(C);
  return Out;
}

std::vector<std::string> PyProgram::classAttrClasses(const std::string &Class,
                                                     const std::string &Attr) const {
  if (!ClassLevelAttrs.count(Attr))
    return {};
  // What the instance's own class may have: the nearest definition above or
  // at Class, and every subclass's own.
  std::vector<std::string> Named;
  for (const auto &A : ancestors(Class)) {
    const auto &Own = classNamed(A)->ClassLevelNames;
    if (auto It = Own.find(Attr); It != Own.end()) {
      Named.push_back(It->second);
      break;
    }
  }
  for (const auto &Sub : descendants(Class))
    if (const PyClassDef *D = classNamed(Sub))
      if (auto Own = D->ClassLevelNames.find(Attr); Own != D->ClassLevelNames.end())
        Named.push_back(Own->second);
  Named.erase(std::remove_if(Named.begin(), Named.end(),
                             [&](const std::string &N) { return !classNamed(N); }),
              Named.end());
  if (Named.empty())
    return {};
  // The nearest common base: the first of one class's ancestors that every
  // other class has among its own.
  std::vector<std::set<std::string>> Above;
  for (size_t I = 1; I < Named.size(); ++I) {
    auto As = ancestors(Named[I]);
    Above.emplace_back(As.begin(), As.end());
  }
  for (const auto &Candidate : ancestors(Named.front()))
    if (std::all_of(Above.begin(), Above.end(),
                    [&](const std::set<std::string> &As) { return As.count(Candidate); }))
      return {Candidate};
  std::sort(Named.begin(), Named.end());
  Named.erase(std::unique(Named.begin(), Named.end()), Named.end());
  return Named;
}

void PyProgram::findNeverNamed() {
  std::set<std::string> Named, Prefixes, Suffixes;
  for (const auto &M : Modules)
    for (const auto &N : M->SpelledNames) {
      if (N.front() != PyModuleInfo::PartOfName) {
        Named.insert(N);
        continue;
      }
      // `getattr(self, "set_" + kind)`, `f"{kind}_hook"`: part of a name.
      std::string Part = N.substr(1);
      if (Part.back() == '_')
        Prefixes.insert(Part);
      if (Part.front() == '_')
        Suffixes.insert(Part);
      Named.insert(std::move(Part));
    }
  auto spelled = [&](const std::string &Method) {
    if (Named.count(Method))
      return true;
    // Each part of Method up to a '_', and each from one on.
    for (size_t At = Method.find('_'); At != std::string::npos; At = Method.find('_', At + 1))
      if (Prefixes.count(Method.substr(0, At + 1)))
        return true;
    for (size_t At = Method.rfind('_'); At != std::string::npos && At > 0;
         At = Method.rfind('_', At - 1))
      if (Suffixes.count(Method.substr(At)))
        return true;
    return false;
  };
  for (const auto &[Name, C] : ClassByName)
    for (const auto &[Method, Attrs] : C->StoresBy) {
      const bool Dunder = Method.size() > 4 && Method.rfind("__", 0) == 0 &&
                          Method.compare(Method.size() - 2, 2, "__") == 0;
      if (!Attrs.empty() && !Dunder && !spelled(Method))
        NeverNamed.insert(Method);
    }
}

const std::set<std::string> &PyProgram::storesOfMethod(const std::string &Method) const {
  static const std::set<std::string> None;
  auto It = MethodStores.find(Method);
  return It == MethodStores.end() ? None : It->second;
}

bool PyProgram::runsOn(const std::string &Class, const std::string &Definer,
                       const std::string &Method) const {
  for (const auto &X : ancestors(Class)) {
    if (X == Definer)
      return true;
    const PyClassDef *C = classNamed(X);
    if (!C || !C->Methods.count(Method))
      continue;
    auto Calls = C->SelfCallsBy.find(Method);
    if (Calls == C->SelfCallsBy.end() || !Calls->second.count(std::string(SuperCall) + Method))
      return false;
  }
  return true;
}

bool PyProgram::attrAssigned(const std::string &Class, const std::string &Attr) const {
  if (auto It = AssignedBelow.find(Class); It != AssignedBelow.end() && It->second.count(Attr))
    return true;
  for (const auto &A : ancestors(Class))
    if (classNamed(A)->AssignedAttrs.count(Attr))
      return true;
  return false;
}

std::string PyProgram::canonical(const std::string &Name) const {
  // `pkg.Net` where pkg/__init__.py does `from .model import Net`.
  std::string Cur = Name;
  for (int Hops = 0; Hops < 8; ++Hops) {
    if (ClassIndex.count(Cur) || FunctionNames.count(Cur))
      return Cur;
    bool Moved = false;
    for (size_t Cut = Cur.rfind('.'); Cut != std::string::npos && Cut > 0;
         Cut = Cur.rfind('.', Cut - 1)) {
      const PyModuleInfo *M = moduleFor(Cur.substr(0, Cut));
      if (!M)
        continue;
      std::string Rest = Cur.substr(Cut + 1);
      std::string Head = Rest.substr(0, Rest.find('.'));
      std::string Tail = Rest.substr(Head.size());
      std::string Next;
      if (auto It = M->Imports.find(Head); It != M->Imports.end())
        Next = It->second + Tail;
      else if (auto D = M->Defs.find(Head); D != M->Defs.end())
        Next = D->second + Tail;
      if (!Next.empty() && Next != Cur) {
        Cur = Next;
        Moved = true;
      }
      break;
    }
    if (!Moved)
      return Cur;
  }
  return Cur;
}

void PyProgram::knowBuilt() {
  for (const auto &[Name, C] : ClassByName)
    for (const auto &[Attr, Named] : C->ClassLevelNames)
      if (classNamed(Named))
        Learned.Built.insert(Named);
  std::lock_guard<std::mutex> Lock(DispatchMutex);
  BuiltKnown = true;
  DispatchMemo.clear();
}

void PyProgram::bindSiblingImports() {
  // A script's folder comes first on sys.path when it runs: `import helper`
  // in tools/train.py is tools/helper.py, whatever a root names it.
  std::map<fs::path, bool> Package; // asked once per folder
  auto isPackage = [&](const fs::path &Dir) {
    auto [It, New] = Package.emplace(Dir, false);
    if (New)
      It->second = isPackageFolder(Dir.string());
    return It->second;
  };
  std::map<fs::path, std::map<std::string, std::string>> NamesIn;
  for (const auto &M : Modules) {
    fs::path P = fs::path(M->Path).lexically_normal();
    if (P.stem() == "__init__") {
      if (!isPackage(P.parent_path().parent_path()))
        NamesIn[P.parent_path().parent_path()][P.parent_path().filename().string()] = M->Module;
    } else if (!isPackage(P.parent_path())) {
      NamesIn[P.parent_path()][P.stem().string()] = M->Module;
      // A folder without an __init__.py next to a script is a namespace
      // package to it (`from utils.trainer import Trainer` with utils/
      // holding trainer.py alone): named as the modules in it name it.
      fs::path Folder = P.parent_path();
      std::string Dotted = M->Module.substr(0, M->Module.rfind('.'));
      for (int Up = 0; Up < 4 && Dotted.size() < M->Module.size() && !isPackage(Folder); ++Up) {
        std::string Last = Dotted.substr(Dotted.rfind('.') + 1);
        if (Last != Folder.filename().string() || Last == Dotted)
          break;
        NamesIn[Folder.parent_path()].emplace(Last, Dotted);
        Folder = Folder.parent_path();
        Dotted = Dotted.substr(0, Dotted.rfind('.'));
      }
    }
  }
  for (auto &M : Modules) {
    fs::path Dir = fs::path(M->Path).lexically_normal().parent_path();
    auto Siblings = NamesIn.find(Dir);
    if (Siblings == NamesIn.end() || isPackage(Dir))
      continue;
    auto sibling = [&](std::string &Q) {
      std::string Head = Q.substr(0, Q.find('.'));
      if (auto It = Siblings->second.find(Head); It != Siblings->second.end() && It->second != Head)
        Q = It->second + Q.substr(Head.size());
    };
    for (auto &[Local, Q] : M->Imports)
      sibling(Q);
    std::set<std::string> Bound;
    for (std::string D : M->ImportedModules) {
      sibling(D);
      Bound.insert(std::move(D));
    }
    M->ImportedModules = std::move(Bound);
  }
}

void PyProgram::bindStarImports() {
  // `from m import *` binds m's public names (those without a leading
  // underscore, or those its __all__ lists, which is not read here): its
  // definitions and its own imports, star imports included, so a chain of
  // them needs a round per link.
  for (int Round = 0; Round < 4; ++Round) {
    bool Changed = false;
    for (auto &M : Modules)
      for (auto It = M->Imports.lower_bound(StarImport);
           It != M->Imports.end() && It->first.rfind(StarImport, 0) == 0; ++It) {
        const PyModuleInfo *From = moduleFor(It->second);
        if (!From || From == M.get())
          continue;
        auto bind = [&](const std::string &Name, const std::string &Q) {
          if (Name.empty() || Name[0] == '_' || Name.rfind(StarImport, 0) == 0 ||
              M->Defs.count(Name))
            return;
          Changed |= M->Imports.emplace(Name, Q).second;
        };
        for (const auto &[Name, Q] : From->Defs)
          bind(Name, Q);
        for (const auto &[Name, Q] : From->Imports)
          bind(Name, Q);
      }
    if (!Changed)
      break;
  }
}

std::string PyProgram::qualify(const PyModuleInfo &M, const std::string &Spelled) const {
  std::string Head = Spelled.substr(0, Spelled.find('.'));
  std::string Tail = Spelled.substr(Head.size());
  if (auto It = M.Imports.find(Head); It != M.Imports.end())
    return canonical(It->second + Tail);
  if (auto D = M.Defs.find(Head); D != M.Defs.end())
    return canonical(D->second + Tail);
  return Spelled;
}

const PyModuleInfo *PyProgram::moduleFor(const std::string &Dotted) const {
  if (auto It = ByModule.find(Dotted); It != ByModule.end())
    return It->second;
  auto It = ByAlias.find(Dotted);
  return It == ByAlias.end() ? nullptr : It->second;
}

const PyClassDef *PyProgram::classNamed(const std::string &QName) const {
  auto It = ClassIndex.find(QName);
  return It == ClassIndex.end() ? nullptr : It->second;
}

std::string PyProgram::methodOf(const std::string &Class, const std::string &Method) const {
  for (const auto &C : ancestors(Class))
    if (classNamed(C)->Methods.count(Method))
      return C + "." + Method;
  return "";
}

} // namespace graphsafe::lint::py
