#include "PyAnalysis.h"

#include "KeepUntilExit.h"
#include "ParallelFor.h"
#include "PyCallGraph.h"
#include "PyContext.h"
#include "PyIndexArchive.h"
#include "PyModeFlags.h"
#include "PyObjectFacts.h"
#include "PyParts.h"
#include "PyPlatform.h"
#include "PyResultCache.h"
#include "ReadFile.h"
#include "cache/BinaryArchive.h"
#include "cache/ContentHash.h"
#include "cache/SummaryArchive.h"
#include "checks/PyCheck.h"
#include "graphsafe/Subprocess.h"
#include "resolve/ArgumentForwarding.h"
#include "resolve/LibrarySemantics.h"
#include "resolve/ModuleSwaps.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <filesystem>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>

namespace fs = std::filesystem;

namespace graphsafe::lint::py {

namespace {

// The callable a graphed-callables helper is handed, by position or by its
// keyword; null when the call passes neither, or when the helper is code
// of the analysed tree (PyTorch's own `torch/`), whose captures are read
// from that code itself.
TSNode graphedArgument(const PyTypes &T, TSNode Call, const HelperSpec &H) {
  if (T.P.isFunction(H.Name))
    return {};
  CallArgs A = argsOf(*T.M.Src, Call);
  if (H.Arg < A.Positional.size())
    return A.Positional[H.Arg];
  return H.Keyword.empty() ? TSNode{} : A.keyword(H.Keyword);
}

// `model(*args)` where args is a tensor or holds tensors: every element is
// a tensor, so each parameter from the splat's position on takes one. The
// parameter of a callable this module hands to a graphed-callables helper
// (Graphed, so far: a lambda is read after the call that hands it on) holds
// the graph's inputs.
void splatTensors(const PyTypes &T, const std::string &Fn, TSNode Call,
                  const std::set<std::string> &Graphed,
                  std::map<std::string, std::set<unsigned>> &TensorParams) {
  const PyFunctionDef *F = T.P.signature(Fn).first;
  if (!F)
    return;
  CallArgs A = calleeArgs(T, Fn, Call);
  const unsigned Named = positionalParameters(*F);
  for (unsigned I = 0; I < A.Positional.size() && I < Named; ++I)
    if (is(A.Positional[I], "list_splat")) {
      TSNode X = unparen(ts_node_named_child(A.Positional[I], 0));
      bool Inputs = is(X, "identifier") && T.parameterAt(T.M.Src->text(X), beginOf(X)) >= 0 &&
                    Graphed.count(T.F.QualName);
      if (Inputs || T.valueOf(X).tensor())
        for (unsigned J = I; J < Named; ++J)
          TensorParams[Fn].insert(J);
      return;
    }
}

std::string displayName(const PyFunctionDef &F, const std::string &Module) {
  if (F.IsModuleBody)
    return Module;
  if (F.IsLambda)
    return "lambda";
  if (!F.ClassQName.empty())
    return F.ClassQName.substr(F.ClassQName.rfind('.') + 1) + "." + F.Name;
  return F.Name;
}

// Whether Eager, a call outside region R of the same function, runs on the
// calls of that function before the one that captures: the capture is made
// under a condition other than the graph's own (a step counter reaching the
// warm-up count) and Eager only while R's graph is still None (`if graph is
// None: out = step()` beside `if it == warmup: with torch.cuda.graph(graph):
// out = step()`).
bool eagerUntilCaptured(const PyFunctionContext &Ctx, const PyRegion &R, TSNode Eager) {
  const PySource &S = Ctx.S;
  if (R.Graph.empty() || ts_node_is_null(R.Opener))
    return false;
  TSNode Body = Ctx.body();
  auto underIf = [&](TSNode N, auto &&Holds) {
    for (TSNode Up = parentOf(N); !ts_node_is_null(Up) && !ts_node_eq(Up, Body);
         N = Up, Up = parentOf(Up))
      if ((is(Up, "if_statement") || is(Up, "elif_clause") || is(Up, "else_clause")) &&
          Holds(Up, N))
        return true;
    return false;
  };
  // Made under a condition, and not one on the graph itself (`if graph is
  // None:` captures on the first call, before any eager one).
  bool Conditional = false, OnGraph = false;
  underIf(R.Opener, [&](TSNode If, TSNode) {
    TSNode Cond = field(is(If, "else_clause") ? parentOf(If) : If, "condition");
    Conditional = true;
    OnGraph |= !ts_node_is_null(Cond) && S.text(Cond).find(R.Graph) != std::string_view::npos;
    return false;
  });
  Conditional = Conditional && !OnGraph;
  auto graphNone = [&](TSNode Cond, bool None) {
    Cond = unparen(Cond);
    return is(Cond, "comparison_operator") && ts_node_child_count(Cond) == 3 &&
           kind(ts_node_child(Cond, 1)) == (None ? "is" : "is not") &&
           is(ts_node_child(Cond, 2), "none") && S.text(ts_node_child(Cond, 0)) == R.Graph;
  };
  return Conditional && underIf(Eager, [&](TSNode If, TSNode Branch) {
           if (is(If, "else_clause")) {
             TSNode Owner = parentOf(If);
             return is(Owner, "if_statement") && graphNone(field(Owner, "condition"), false);
           }
           return ts_node_eq(field(If, "consequence"), Branch) &&
                  graphNone(field(If, "condition"), true);
         });
}

// Whether N, if it names a class, may make instances of it: called, or
// handed on as a value (to a factory, a registry, a list) that may be
// called later. A base class list, an isinstance() test or an annotation
// makes none.
bool constructs(const PySource &S, TSNode N, TSNode Up, TSNode UpUp) {
  if (!is(N, "identifier") && !is(N, "attribute"))
    return false;
  if (is(Up, "call"))
    return ts_node_eq(field(Up, "function"), N);
  if (is(Up, "attribute") || is(Up, "type"))
    return false;
  if (is(Up, "argument_list")) {
    TSNode Call = UpUp;
    if (!is(Call, "call"))
      return false; // class C(Base): the bases
    std::string_view Fn = S.text(field(Call, "function"));
    return Fn != "isinstance" && Fn != "issubclass";
  }
  return is(Up, "assignment") || is(Up, "keyword_argument") || is(Up, "list") || is(Up, "tuple") ||
         is(Up, "set") || is(Up, "pair") || is(Up, "expression_list") ||
         is(Up, "return_statement") || is(Up, "default_parameter") ||
         is(Up, "typed_default_parameter") || is(Up, "conditional_expression");
}

ConstArg warmedUpFact() {
  ConstArg C;
  C.Global = WarmedUp;
  C.Truthy = true;
  C.NoneKnown = false;
  return C;
}

bool isLearningRateItem(const PySource &S, TSNode E) {
  E = unparen(E);
  return is(E, "subscript") && stringLiteral(S, field(E, "subscript")) == "lr";
}

// `group['lr'].fill_(lr)`, `group['lr'] = torch.tensor(lr, device=...)`.
bool keepsTensorLearningRate(const PyTypes &T, TSNode N) {
  const PySource &S = *T.M.Src;
  if (is(N, "call")) {
    TSNode Fn = unparen(field(N, "function"));
    if (!is(Fn, "attribute"))
      return false;
    std::string_view Method = S.text(field(Fn, "attribute"));
    return Method.size() > 1 && Method.back() == '_' && Method.substr(Method.size() - 2) != "__" &&
           isLearningRateItem(S, field(Fn, "object"));
  }
  return is(N, "assignment") && isLearningRateItem(S, field(N, "left")) &&
         T.valueOf(field(N, "right")).tensor();
}

// The project functions a callee key runs, as far as one module's reading
// can tell: the function itself, or for the result of calling a project
// function (`maybe_wrap(flag)(model_cls)`) the functions its returns name
// (`return lambda x: wrap(x)`), which the joined program would find later.
std::vector<std::string> learnedCallees(const PyProgram &P, PyTypeCache &Cache,
                                        const std::string &Callee) {
  if (Callee.rfind("py:", 0) == 0 && P.isFunction(Callee.substr(3)))
    return {Callee.substr(3)};
  if (Callee.rfind(PyReturnPrefix, 0) != 0)
    return {};
  const std::string Maker = Callee.substr(PyReturnPrefix.size());
  const PyFunctionDef *Def = P.function(Maker);
  const PyModuleInfo *Mod = P.moduleOfFunction(Maker);
  if (!Def || !Mod || Def->IsModuleBody || Def->IsLambda)
    return {};
  const PyTypes &T = cachedTypes(P, *Mod, *Def, Cache);
  std::vector<std::string> Out;
  walk(Def->body(), [&](TSNode N) {
    if (is(N, "return_statement"))
      for (const auto &K : valueTargets(T, ts_node_named_child(N, 0)))
        if (K.rfind("py:", 0) == 0 && P.isFunction(K.substr(3)))
          Out.push_back(K.substr(3));
    return !is(N, "return_statement");
  });
  return Out;
}

// The classes of the instances Call (in T's code) puts into the `*args` of
// the project function Fn: one per position past its named parameters, and
// the elements of a list splatted there.
void varargsElements(const PyTypes &T, const std::string &Fn, TSNode Call, PyLearned &Out) {
  const auto [F, M] = T.P.signature(Fn);
  if (!F || !M || !M->Src || F->IsModuleBody || F->IsLambda ||
      splatNames(*M->Src, *F).Varargs.empty())
    return;
  CallArgs A = calleeArgs(T, Fn, Call);
  const unsigned Named = positionalParameters(*F);
  for (unsigned I = 0; I < A.Positional.size(); ++I) {
    TSNode Arg = A.Positional[I];
    const bool Splat = is(Arg, "list_splat");
    if ((I < Named && !Splat) || is(Arg, "dictionary_splat"))
      continue;
    Value V = T.valueOf(Splat ? ts_node_named_child(Arg, 0) : Arg);
    if (V.K != VK::Instance || V.Many != Splat)
      continue;
    for (const auto &C : V.classes())
      if (T.P.classNamed(C)) {
        Out.ElementClasses[Fn][PyLearned::VarargsParam].insert(C);
        if (!V.Exact || !V.Also.empty())
          Out.InexactElementClasses[Fn][PyLearned::VarargsParam].insert(C);
      }
  }
}

// What callers tell about callees' parameters (PyProgram::tensorParam),
// gathered before any function is summarised; from the functions inside
// Scopes alone when given.
void learnParameters(const PyProgram &P, const PyModuleInfo &M, const RuleSet &Rules,
                     PyLearned &Out, const std::vector<std::string> *Scopes = nullptr) {
  auto &Graphed = Out.Graphed;
  auto &TensorParams = Out.TensorParams;
  auto &Classes = Out.Classes;
  auto &SuperClasses = Out.SuperClasses;
  auto &ClassObjects = Out.ClassObjects;
  const PySource &S = *M.Src;
  PyTypeCache Cache;
  for (const auto &F : M.Functions) {
    if (Scopes && std::none_of(Scopes->begin(), Scopes->end(), [&](const std::string &Q) {
          return F.QualName.compare(0, Q.size(), Q) == 0 &&
                 (F.QualName.size() == Q.size() || F.QualName[Q.size()] == '.');
        }))
      continue;
    PyTypes T(P, M, F, Cache);
    walkWithParents(F.body(), [&](TSNode N, TSNode Up, TSNode UpUp) {
      if (constructs(S, N, Up, UpUp))
        if (std::string Q = T.resolve(N); !Q.empty() && P.classNamed(Q)) {
          Out.Built.insert(Q);
          Out.BuiltIn[M.Path].insert(Q);
        }
      if (keepsTensorLearningRate(T, N))
        Out.TensorLearningRates.insert(M.Module);
      if (!is(N, "call"))
        return true;
      if (int Swapped = swappedParameter(T, N); Swapped >= 0)
        Out.Swaps[F.QualName].insert(Swapped);
      // What a graphed-callables helper, or a function handing its
      // parameter on to one, is handed is captured; this function's own
      // parameter handed there makes this function such a one too.
      auto captured = [&](TSNode Arg) {
        for (const auto &Target : graphedTargets(T, Arg))
          if (Target.rfind("py:", 0) == 0 && P.isFunction(Target.substr(3)))
            Graphed.insert(Target.substr(3));
        // `model` itself, or a lambda calling it (`lambda args: model(*args)`).
        TSNode A = unparen(Arg);
        if (is(A, "lambda"))
          if (TSNode Body = unparen(field(A, "body")); is(Body, "call"))
            A = unparen(field(Body, "function"));
        if (is(A, "identifier"))
          if (int From = T.parameterAt(S.text(A), beginOf(A)); From >= 0)
            Out.GraphedParams[F.QualName].insert(From);
      };
      std::string Q = T.resolve(field(N, "function"));
      for (const auto &H : Rules.Capture.PyGraphedCallables)
        if (H.Name == Q)
          if (TSNode Arg = graphedArgument(T, N, H); !ts_node_is_null(Arg))
            captured(Arg);
      // What an argument is, learned for parameter Index of Fn; Direct: Fn
      // is the callee written, not one reached through its `*args`.
      auto learn = [&](const std::string &Fn, unsigned Index, TSNode Arg, bool Direct) {
        // Made from a parameter or a local that may be (`callables` filled
        // by `callables.append(block)` in `for block in blocks`, handed on
        // as `tuple(callables)`): known only once the parameter is.
        bool Local = false;
        walk(Arg, [&](TSNode Id) {
          Local |= is(Id, "identifier") && T.bindsHere(S.text(Id));
          return !Local && !is(Id, "lambda");
        });
        if (Local)
          Out.HandsOn.insert(F.QualName);
        Value V = T.valueOf(Arg);
        if (V.tensor())
          TensorParams[Fn].insert(Index);
        else if (V.K == VK::Instance && V.Many) {
          for (const auto &C : V.classes())
            if (P.classNamed(C)) {
              Out.ElementClasses[Fn][Index].insert(C);
              if (!V.Exact)
                Out.InexactElementClasses[Fn][Index].insert(C);
            }
        } else if (V.K == VK::Instance && !V.Many) {
          TSNode Callee = unparen(field(N, "function"));
          bool ViaSuper = Direct && is(Callee, "attribute") &&
                          isSuperCall(T, field(Callee, "object")) && !F.ClassQName.empty();
          bool Exact = V.Exact && V.Also.empty() && !ViaSuper;
          for (const auto &C : V.classes())
            if (P.classNamed(C)) {
              Classes[Fn][Index].insert(C);
              if (!Exact)
                Out.InexactClasses[Fn][Index].insert(C);
              if (ViaSuper)
                SuperClasses[Fn + "@" + F.ClassQName][Index].insert(C);
            }
        } else {
          for (auto &Q : T.classObjects(Arg))
            ClassObjects[Fn][Index].insert(std::move(Q));
        }
      };
      for (const auto &Callee : calleesOf(T, N).Keys)
        for (const auto &Fn : learnedCallees(P, Cache, Callee)) {
          auto Wrapper = P.Learned.GraphedParams.find(Fn);
          for (const auto &[Index, Arg] : boundArguments(T, Fn, N)) {
            learn(Fn, Index, Arg, true);
            if (Wrapper != P.Learned.GraphedParams.end() && Wrapper->second.count(Index))
              captured(Arg);
          }
          varargsElements(T, Fn, N, Out);
          splatTensors(T, Fn, N, Graphed, TensorParams);
          for (const auto &W : forwardedArguments(T, Fn, N))
            learn(W.Callee, W.Index, W.Arg, false);
        }
      return true;
    });
  }
}

// The code of M whose facts the first round of learning can change: the
// functions handed class objects, or handed instances they pass on, with
// the rest of their classes (which read what they stored on self) and the
// functions nested in them.
bool handedInstances(const PyProgram &P, const std::string &Function) {
  return P.Learned.Classes.count(Function) > 0 || P.Learned.ElementClasses.count(Function) > 0;
}

// Into Out, the functions for which New holds a parameter index Into does not.
void indicesGrownBy(const std::map<std::string, std::set<unsigned>> &Into,
                    const std::map<std::string, std::set<unsigned>> &New,
                    std::set<std::string> &Out) {
  for (const auto &[F, Is] : New) {
    auto Known = Into.find(F);
    if (Known == Into.end() ||
        !std::includes(Known->second.begin(), Known->second.end(), Is.begin(), Is.end()))
      Out.insert(F);
  }
}

// The functions of which New knows more parameters to take tensors than
// Into does, or that New alone hands to a capture (all theirs then do).
std::set<std::string> tensorsGrownBy(const PyLearned &Into, const PyLearned &New) {
  std::set<std::string> Out;
  indicesGrownBy(Into.TensorParams, New.TensorParams, Out);
  for (const auto &F : New.Graphed)
    if (!Into.Graphed.count(F))
      Out.insert(F);
  return Out;
}

// The functions of whose parameters New says what Into does not know yet.
std::set<std::string> grownBy(const PyLearned &Into, const PyLearned &New) {
  std::set<std::string> Out;
  for (auto Table :
       {&PyLearned::Classes, &PyLearned::SuperClasses, &PyLearned::ClassObjects,
        &PyLearned::ElementClasses, &PyLearned::InexactElementClasses, &PyLearned::InexactClasses})
    for (const auto &[Key, Params] : New.*Table) {
      auto Known = (Into.*Table).find(Key);
      for (const auto &[Index, Classes] : Params) {
        const std::set<std::string> *Had = nullptr;
        if (Known != (Into.*Table).end())
          if (auto It = Known->second.find(Index); It != Known->second.end())
            Had = &It->second;
        if (!Had || !std::includes(Had->begin(), Had->end(), Classes.begin(), Classes.end())) {
          Out.insert(Key.substr(0, Key.find('@')));
          break;
        }
      }
    }
  return Out;
}

// The classes one of whose methods, or a base's, was handed instances
// (of those in Grown, where given): another of their methods may hand on
// what the first kept on self (`GraphCache(model)` keeps it,
// `trace(self.model)` passes it on).
std::set<std::string> keepingClasses(const PyProgram &P, const std::set<std::string> *Grown) {
  std::set<std::string> Out;
  for (const auto *Table : {&P.Learned.Classes, &P.Learned.ElementClasses})
    for (const auto &[Function, Params] : *Table)
      if (!Grown || Grown->count(Function))
        if (const PyFunctionDef *F = P.functionIndex(Function); F && !F->ClassQName.empty())
          Out.insert(F->ClassQName);
  return Out;
}

// Whether M may call one of Wrappers (functions the last round found
// handing a parameter to a graphed-callables helper): it defines one, or
// imports it or its module. Its calls hand the callables they pass there
// to the capture, so M is read again whole.
bool callsWrappers(const PyModuleInfo &M, const std::set<std::string> &Wrappers) {
  auto within = [](const std::string &W, const std::string &Prefix) {
    return W.size() > Prefix.size() && W.compare(0, Prefix.size(), Prefix) == 0 &&
           W[Prefix.size()] == '.';
  };
  for (const auto &W : Wrappers) {
    if (within(W, M.Module))
      return true;
    for (const auto &[Local, Qualified] : M.Imports)
      if (Qualified == W || within(W, Qualified))
        return true;
    for (const auto &Imported : M.ImportedModules)
      if (within(W, Imported))
        return true;
  }
  return false;
}

// The scopes of M to read again. Grown, after the first time: the
// functions the last reading learned more of; only what reads those is
// read once more.
std::vector<std::string> scopesToReadAgain(const PyProgram &P, const PyModuleInfo &M,
                                           const std::set<std::string> &Keeping,
                                           const std::set<std::string> *Grown) {
  std::set<std::string> Scopes;
  auto keeps = [&](const std::string &Class) {
    if (Class.empty())
      return false;
    for (const auto &A : P.ancestors(Class))
      if (Keeping.count(A))
        return true;
    return false;
  };
  auto grew = [&](const std::string &Function) { return !Grown || Grown->count(Function) > 0; };
  for (const auto &F : M.Functions)
    if ((P.Learned.ClassObjects.count(F.QualName) > 0 && grew(F.QualName)) ||
        (P.Learned.HandsOn.count(F.QualName) &&
         ((handedInstances(P, F.QualName) && grew(F.QualName)) || keeps(F.ClassQName))))
      Scopes.insert(F.ClassQName.empty() ? F.QualName : F.ClassQName);
  return {Scopes.begin(), Scopes.end()};
}

// What makes this module's place in a program: the analysed modules it
// imports (and the packages above them) and the classes it builds, class
// attributes naming a class included (`layer_class = Block` is built
// wherever the holder is).
void noteProgramFacts(const PyProgram &P, const PyModuleInfo &M, TUSummary &Out) {
  std::set<std::string> Files;
  auto importModule = [&](std::string Dotted) {
    const PyModuleInfo *Found = nullptr;
    for (;;) {
      if ((Found = P.moduleNamed(Dotted)))
        break;
      size_t Cut = Dotted.rfind('.');
      if (Cut == std::string::npos)
        return;
      Dotted.resize(Cut);
    }
    Files.insert(Found->Path);
    for (size_t Cut = Dotted.rfind('.'); Cut != std::string::npos; Cut = Dotted.rfind('.')) {
      Dotted.resize(Cut);
      if (const PyModuleInfo *Package = P.moduleNamed(Dotted))
        Files.insert(Package->Path);
    }
  };
  for (const auto &D : M.ImportedModules)
    importModule(D);
  for (const auto &[Local, Q] : M.Imports)
    importModule(Q);
  Files.erase(M.Path);
  Out.ImportedFiles.assign(Files.begin(), Files.end());
  std::set<std::string> Built;
  if (auto It = P.Learned.BuiltIn.find(M.Path); It != P.Learned.BuiltIn.end())
    for (const auto &C : It->second)
      Built.insert(classKey(C));
  for (const auto &[Name, C] : M.Classes)
    for (const auto &[Attr, Named] : C.ClassLevelNames)
      if (P.classNamed(Named))
        Built.insert(classKey(Named));
  Out.BuiltClasses.assign(Built.begin(), Built.end());
}

void summarise(const PyProgram &P, const PyModuleInfo &M, const RuleSet &Rules,
               const std::map<std::string, const Rule *> &CheckRules,
               const std::vector<std::unique_ptr<PyCheck>> &Checks, TUSummary &Out) {
  const PySource &S = *M.Src;
  Out.File = S.path();
  PyTypeCache Cache;
  for (const auto &F : M.Functions) {
    FunctionSummary FS;
    // The calls made outside this function's regions, by callee spelling
    // and offset: a region's call made before the region began has run once
    // before the capture (a warm-up), and so have its lazy initialisations.
    std::optional<std::multimap<std::string, TSNode>> Uncaptured;
    FS.Usr = usr(F.QualName);
    FS.Name = displayName(F, M.Module);
    FS.Loc = F.IsModuleBody ? SourceLoc{S.path(), 1, 1} : S.loc(F.Node);
    // No Overrides: the Python front end dispatches each call by its
    // receiver's class itself (PyProgram::dispatch).
    std::tie(FS.MinArgs, FS.MaxArgs) = positionalArity(F);
    for (TSNode Param : callerParameters(F)) {
      TSNode Name = parameterName(Param);
      FS.ParamNames.emplace_back(ts_node_is_null(Name) ? std::string_view() : M.Src->text(Name));
    }
    FS.ParamDefaults = parameterDefaultFacts(F, S);
    FS.TakesKwargs = takesKwargs(F);
    PyTypes T(P, M, F, Cache);
    PyFunctionContext Ctx(T, Rules, CheckRules, FS);
    findRegions(Ctx, Rules.Capture);
    auto warmedUp = [&](TSNode Call) {
      const PyRegion *R = Ctx.regionAt(beginOf(Call));
      if (!R)
        return false;
      if (!Uncaptured) {
        Uncaptured.emplace();
        walk(Ctx.body(), [&](TSNode N) {
          if (is(N, "call") && Ctx.contextAt(beginOf(N)) != CaptureContext::InRegion)
            Uncaptured->emplace(calleeText(S, N), N);
          return true;
        });
      }
      auto [From, To] = Uncaptured->equal_range(calleeText(S, Call));
      return std::any_of(From, To, [&](const auto &Made) {
        return beginOf(Made.second) < R->Begin || eagerUntilCaptured(Ctx, *R, Made.second);
      });
    };
    if (F.IsLambda)
      collectStores(T, F.Node, Out.CallableStores);
    walk(Ctx.body(), [&](TSNode N) {
      // What no CUDA process runs calls and stores nothing for a capture.
      if (is(N, "block") && offPlatform(T, N))
        return false;
      if (is(N, "assignment") || is(N, "yield") || is(N, "return_statement") ||
          is(N, "function_definition") || (is(N, "lambda") && !F.IsLambda)) {
        collectStores(T, N, Out.CallableStores);
        return true;
      }
      // Calls the language makes without a call written: decorators where a
      // definition runs, a class's constructor where `raise Error` names it,
      // __iter__ and __next__ where a loop iterates an object.
      std::vector<std::string> Implicit;
      std::string Receiver; // the class key self has in an implicit method call
      if (is(N, "decorated_definition")) {
        Implicit = decoratorCalls(T, N, Out.CallableStores);
      } else if (is(N, "raise_statement")) {
        // `raise Error(...)` is a call already walked; `raise Error` (or a
        // name bound to the class) builds an instance.
        if (TSNode Raised = unparen(ts_node_named_child(N, 0)); !is(Raised, "call"))
          for (auto &K : valueTargets(T, Raised))
            if (K.size() > 9 && K.compare(K.size() - 9, 9, ".__init__") == 0)
              Implicit.push_back(std::move(K));
      } else if (is(N, "for_statement") || is(N, "for_in_clause")) {
        Implicit = iterationCalls(T, field(N, "right"), &Receiver);
      }
      if (!Implicit.empty()) {
        SourceLoc RegionBegin;
        CaptureContext C = Ctx.contextAt(beginOf(N), &RegionBegin);
        for (const auto &Target : Implicit) {
          FS.Calls.push_back({Target, std::string(S.text(N).substr(0, S.text(N).find('\n'))),
                              S.loc(N), C, RegionBegin});
          // `for batch in buffer` on a buffer of a known class: its
          // __iter__'s own `self.sample()` runs that class's.
          // Its parts too: `self._sampler.sample()` there runs the sampler
          // this buffer was built with.
          if (!Receiver.empty()) {
            FS.Calls.back().Exact = true;
            FS.Calls.back().Receiver = Receiver;
            FS.Calls.back().Constants = iteratedObjectFacts(T, field(N, "right"));
          }
        }
      }
      if (!is(N, "call"))
        return true;
      collectStores(T, N, Out.CallableStores);
      // What a call on the capturing side of a capture-status test reaches
      // keeps the capture's books.
      struct MarkMechanism {
        std::vector<CallEdge> &Calls;
        size_t From;
        bool On;
        ~MarkMechanism() {
          for (size_t I = From; On && I < Calls.size(); ++I)
            Calls[I].Mechanism = true;
        }
      } Mark{FS.Calls, FS.Calls.size(), Ctx.captureOnly(beginOf(N))};
      SourceLoc RegionBegin;
      CaptureContext C = Ctx.contextAt(beginOf(N), &RegionBegin);
      std::string Q = T.resolve(field(N, "function"));
      for (const auto &H : Rules.Capture.PyGraphedCallables)
        if (H.Name == Q) {
          if (TSNode Arg = graphedArgument(T, N, H); !ts_node_is_null(Arg))
            for (const auto &Target : graphedTargets(T, Arg)) {
              FS.Calls.push_back({Target, Q, S.loc(N), CaptureContext::InRegion, S.loc(N)});
              // It runs each callable in warm-up iterations before capturing.
              FS.Calls.back().Constants.push_back(warmedUpFact());
            }
        }
      // Calls before or after this function's own regions, or behind a
      // capture-status guard, are kept too: the walk does not follow them,
      // but they tell which mode flags hold where the callee's own regions
      // run (entry modes, Reachability.cpp).
      Callees Cs = calleesOf(T, N);
      std::string Text = calleeText(S, N);
      // Calls into libraries are known but not followed: no tests needed.
      bool Followed = !Cs.SelfMethod.empty() ||
                      std::any_of(Cs.Keys.begin(), Cs.Keys.end(),
                                  [](const std::string &K) { return K.rfind("ext:", 0) != 0; });
      std::vector<ParamTest> When = Followed ? Ctx.testsAt(N) : std::vector<ParamTest>{};
      std::string Gate = Followed ? Ctx.envGateAt(N) : "";
      if (Followed && Gate.empty())
        Gate = swapGate(T, N);
      // What the arguments are known to hold, by the parameters of the first
      // project function the call reaches (overrides share their
      // signature); through a value, by position (PyObjectFacts.h).
      std::vector<ConstArg> Passed;
      std::vector<std::string> Keywords;
      if (Followed && Cs.Dynamic) {
        Passed = objectArguments(T, "", N);
        std::vector<ConstArg> ByName = keywordArguments(T, N, Keywords);
        Passed.insert(Passed.end(), ByName.begin(), ByName.end());
      }
      for (const auto &Target : Cs.Keys)
        if (!Cs.Dynamic && Target.rfind("py:", 0) == 0 && P.isFunction(Target.substr(3))) {
          Passed = literalArguments(T, Target.substr(3), N);
          if (Followed) {
            std::vector<ConstArg> Objects = objectArguments(T, Target.substr(3), N);
            Passed.insert(Passed.end(), Objects.begin(), Objects.end());
            std::vector<ConstArg> Classes = classArguments(T, Target.substr(3), N);
            Passed.insert(Passed.end(), Classes.begin(), Classes.end());
            std::vector<ConstArg> Streams = streamArguments(T, Target.substr(3), N);
            Passed.insert(Passed.end(), Streams.begin(), Streams.end());
          }
          break;
        }
      // `optimizer.step()` on a parameter: the class the walk knows the
      // caller was handed decides which step runs.
      int ReceiverParam = -1;
      std::string ParamMethod, ReceiverAttr;
      if (TSNode Fn = unparen(field(N, "function")); is(Fn, "attribute") && Cs.SelfMethod.empty()) {
        if (TSNode Obj = unparen(field(Fn, "object")); is(Obj, "identifier")) {
          ReceiverParam = T.parameterAt(S.text(Obj), beginOf(Obj));
          ParamMethod = std::string(S.text(field(Fn, "attribute")));
        }
        // `self.encoder(x)`, `self.encoder.encode(x)`: which classes this
        // object's encoder may be is known where the walk saw it built.
        if (std::string Attr = selfAttributeCalled(T, N, ParamMethod); !Attr.empty()) {
          ReceiverParam = static_cast<int>(ObjectParam);
          ReceiverAttr = std::move(Attr);
        }
      }
      if (Followed) {
        std::vector<ConstArg> Closed = Ctx.closureFactsAt(When);
        Passed.insert(Passed.end(), Closed.begin(), Closed.end());
        std::vector<ConstArg> Framed = Ctx.closureFrameFacts(C);
        Passed.insert(Passed.end(), Framed.begin(), Framed.end());
        // Into a function that speaks of capture (one holding a region), the
        // modes every path to the call set matter too: they hold where its
        // capture begins (`set_context(False, ...)` in the caller, then
        // `self._capture(...)`). Such a call is a statement or an assignment;
        // a capture-status query tested in a condition is not one, and its
        // caller does not read what runs before it.
        auto speaksOfCapture = [&](const std::string &Q) {
          const PyFunctionDef *D = P.functionIndex(Q);
          return D && D->MentionsCapture;
        };
        TSNode Up = parentOf(N);
        bool Statement = is(Up, "expression_statement") || is(Up, "assignment");
        bool IntoCapture =
            Statement && std::any_of(Cs.Keys.begin(), Cs.Keys.end(), [&](const std::string &K) {
              return K.rfind("py:", 0) == 0 && speaksOfCapture(K.substr(3));
            });
        if (Statement && !Cs.SelfMethod.empty() && !F.ClassQName.empty())
          for (const auto &M : P.dispatch(F.ClassQName, Cs.SelfMethod, false))
            IntoCapture = IntoCapture || speaksOfCapture(M);
        std::vector<ConstArg> Modes =
            modeFactsAt(T, N, C == CaptureContext::InRegion || IntoCapture);
        // A call the modes set around it rule out is never made.
        if (!runsWith(When, Modes))
          return true;
        Passed.insert(Passed.end(), Modes.begin(), Modes.end());
      }
      if (C == CaptureContext::InRegion && Followed && warmedUp(N))
        Passed.push_back(warmedUpFact());
      if (!Cs.SelfMethod.empty() && Followed) {
        std::vector<ConstArg> Receiver = receiverArguments(T, N);
        Passed.insert(Passed.end(), Receiver.begin(), Receiver.end());
      }
      if (!Cs.SelfMethod.empty()) {
        FS.Calls.push_back({"py:self:" + Cs.SelfMethod, Text, S.loc(N), C, RegionBegin, true, false,
                            Cs.SelfMethod, Cs.Receiver, When, Passed, Gate});
        for (const auto &M : Cs.AlsoSelf)
          FS.Calls.push_back({"py:self:" + M, Text, S.loc(N), C, RegionBegin, true, false, M,
                              Cs.Receiver, When, Passed, Gate});
      } else
        for (const auto &Target : Cs.Keys) {
          FS.Calls.push_back({Target, Text, S.loc(N), C, RegionBegin, Cs.Exact, Cs.Dynamic, "",
                              Cs.Receiver, When, Passed, Gate,
                              Cs.Dynamic ? positionalCount(T, N) : -1});
          FS.Calls.back().Keywords = Keywords;
          if (Cs.Dynamic)
            describeSplats(T, N, FS.Calls.back());
          // A decorated function's wrapper calls, here, this function alone.
          if (Target.rfind("py:dec:", 0) == 0)
            FS.Calls.back().Binds = decoratorBinds(T, Target.substr(7));
          if (!ReceiverAttr.empty()) {
            FS.Calls.back().ReceiverParam = ReceiverParam;
            FS.Calls.back().ParamMethod = ParamMethod;
            FS.Calls.back().ReceiverAttr = ReceiverAttr;
          }
          if (Target.rfind("py:", 0) == 0 && P.isFunction(Target.substr(3))) {
            if (ReceiverParam >= 0) {
              FS.Calls.back().ReceiverParam = ReceiverParam;
              FS.Calls.back().ParamMethod = ParamMethod;
            }
            // The callables this call hands the callee's parameters: a call
            // through one there runs these, not what every caller passes.
            if (!Cs.Dynamic)
              FS.Calls.back().Binds = parameterBinds(T, Target.substr(3), N);
          }
        }
      if (Cs.Dynamic && Cs.Keys.empty())
        FS.Calls.push_back({"py:unknown", Text, S.loc(N), C, RegionBegin, false, true});
      // A callable handed to code outside the project may run here (a hook,
      // torch.utils.checkpoint); one handed to the project's own function runs
      // where that function calls it, through its parameter.
      bool ToProject = std::any_of(Cs.Keys.begin(), Cs.Keys.end(), [&](const std::string &K) {
        return K.rfind("py:", 0) == 0 && P.isFunction(K.substr(3));
      });
      // Through storage, they go to the parameters of what it holds
      // (collectStores): no guess here.
      bool ThroughStorage =
          Cs.Dynamic && std::any_of(Cs.Keys.begin(), Cs.Keys.end(),
                                    [](const auto &K) { return K.rfind("py:", 0) == 0; });
      if (!ToProject && !ThroughStorage) {
        CallArgs A = argsOf(S, N);
        std::vector<std::pair<std::string_view, TSNode>> Handed;
        for (TSNode Arg : A.Positional)
          Handed.push_back({"", Arg});
        Handed.insert(Handed.end(), A.Keywords.begin(), A.Keywords.end());
        TSNode Fn = unparen(field(N, "function"));
        std::string_view Method = is(Fn, "attribute") ? S.text(field(Fn, "attribute")) : "";
        for (const auto &[Keyword, Arg] : Handed) {
          HandedUse Use = handedUse(Q, Method, Keyword);
          if (Use == HandedUse::Inspects || Use == HandedUse::Keeps)
            continue;
          for (const auto &Target : handedFunctions(T, Arg))
            (Use == HandedUse::OtherThread ? Out.ThreadEntries : FS.Calls)
                .push_back({Target, std::string(S.text(Arg)), S.loc(Arg),
                            Use == HandedUse::OtherThread ? CaptureContext::Ambient : C,
                            RegionBegin});
        }
      }
      return true;
    });
    for (const auto &Check : Checks)
      Check->run(Ctx);
    Out.Functions.push_back(std::move(FS));
  }
  for (const auto &[Name, C] : M.Classes) {
    ClassSummary CS;
    CS.Key = classKey(Name);
    for (const auto &B : C.Bases)
      CS.Bases.push_back(classKey(B));
    for (const auto &Method : C.Methods)
      CS.Methods[Method] = usr(Name + "." + Method);
    Out.Classes.push_back(std::move(CS));
  }
  noteProgramFacts(P, M, Out);
}

} // namespace

namespace {

// What the local python3 makes of a file tree-sitter could not read whole:
// nothing where there is no python3; Compiles, or where and why it stops.
struct PythonVerdict {
  bool Compiles = false;
  unsigned Line = 0, Column = 0;
  std::string Message;
};

std::optional<PythonVerdict> compileWithPython(const std::string &File) {
  if (!onPath("python3"))
    return std::nullopt;
  std::string Out;
  int Rc = runProgram({"python3", "-c",
                       "import sys\n"
                       "try:\n"
                       "    compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')\n"
                       "except SyntaxError as e:\n"
                       "    print(f'{e.lineno or 0}:{e.offset or 0}:{e.msg}')\n"
                       "    sys.exit(3)\n",
                       File},
                      &Out);
  PythonVerdict V;
  V.Compiles = Rc == 0;
  unsigned Line = 0, Column = 0;
  int Used = 0;
  if (Rc == 3 && std::sscanf(Out.c_str(), "%u:%u:%n", &Line, &Column, &Used) == 2 && Line > 0) {
    V.Line = Line;
    V.Column = std::max(Column, 1u);
    V.Message = Out.substr(Used);
    while (!V.Message.empty() && std::isspace(static_cast<unsigned char>(V.Message.back())))
      V.Message.pop_back();
  }
  return V;
}

struct ModuleName {
  std::string Module, Package;
  std::vector<std::string> Aliases;
  // Set when another tree analysed with this one has a package of the same
  // name (PyModuleInfo::RootPrefix).
  std::string RootPrefix;
};

// Module names first. Two trees holding a package of one name (a server and
// its vendored fork, two scripts named train.py) must not share names: every
// module under such a tree's root is prefixed by the root's path, and its
// imports are looked up in its own tree first (PyProgram::link).
std::vector<ModuleName> nameModules(const std::vector<std::string> &Files,
                                    const SourceRoots &Sources) {
  std::vector<ModuleName> Names(Files.size());
  std::vector<std::string> Roots(Files.size());
  std::map<std::string, std::set<std::string>> RootsOf;
  for (size_t I = 0; I < Files.size(); ++I) {
    ModuleNames N = moduleNamesOf(Files[I], Sources);
    Names[I].Module = std::move(N.Module);
    Names[I].Package = std::move(N.Package);
    Names[I].Aliases = std::move(N.Aliases);
    // The folder holding the top-level package: one level up per dot, and
    // one more for a package's own __init__.py.
    fs::path Root = fs::absolute(Files[I]).lexically_normal().parent_path();
    size_t Up = std::count(Names[I].Module.begin(), Names[I].Module.end(), '.') +
                (fs::path(Files[I]).stem() == "__init__" ? 1 : 0);
    for (; Up > 0; --Up)
      Root = Root.parent_path();
    for (const auto &Part : Root)
      if (Part != "/")
        Roots[I] += Part.string() + ".";
    RootsOf[Names[I].Module].insert(Roots[I]);
  }
  std::set<std::string> Prefixed;
  for (const auto &[Name, Rs] : RootsOf)
    if (Rs.size() > 1)
      Prefixed.insert(Rs.begin(), Rs.end());
  for (size_t I = 0; I < Files.size(); ++I)
    if (Prefixed.count(Roots[I])) {
      ModuleName &N = Names[I];
      N.RootPrefix = Roots[I];
      N.Module = Roots[I] + N.Module;
      if (!N.Package.empty())
        N.Package = Roots[I] + N.Package;
    }
  return Names;
}

std::unique_ptr<PyModuleInfo> newModule(const std::string &Path, const ModuleName &Name) {
  auto M = std::make_unique<PyModuleInfo>();
  M->Path = Path;
  M->Module = Name.Module;
  M->Package = Name.Package;
  M->RootPrefix = Name.RootPrefix;
  if (Name.RootPrefix.empty())
    M->Aliases = Name.Aliases;
  return M;
}

// Parses and indexes one file into E (its index, errors, warnings, lines):
// the module, or null when the file cannot be read as Python. The packed
// index is for a cache entry alone: without a cache it is not made.
std::unique_ptr<PyModuleInfo> parseModule(const std::string &File, const std::string &Path,
                                          std::string Text, const ModuleName &Name,
                                          PyModuleEntry &E, bool PackIndex) {
  E = PyModuleEntry{};
  auto M = newModule(Path, Name);
  std::string Error;
  M->Src = PySource::parse(File, std::move(Text), Error);
  if (!M->Src) {
    E.Errors.push_back({File, Error});
    return nullptr;
  }
  E.Parsed = true;
  E.Lines = std::count(M->Src->text().begin(), M->Src->text().end(), '\n');
  for (const auto &[Loc, What] : M->Src->skipped())
    E.Errors.push_back({fmt::format("{}:{}:{}", Loc.File, Loc.Line, Loc.Column), What});
  auto Syntax = M->Src->syntaxErrors();
  std::optional<PythonVerdict> Python = Syntax.empty() ? std::nullopt : compileWithPython(File);
  if (Python && !Python->Compiles && Python->Line > 0) {
    // tree-sitter's recovery can start an error node lines before the
    // mistake (at the top of the file for a parenthesis left open);
    // python3 names where the statement it cannot read is.
    E.Errors.push_back({fmt::format("{}:{}:{}", File, Python->Line, Python->Column),
                        fmt::format("invalid syntax ({}, as python3 reads it); the rest of the "
                                    "file is still analysed, findings near here may be missing",
                                    Python->Message)});
    Syntax.clear();
  }
  // tree-sitter's grammar lags CPython's in places (`x = *a, *b`): when the
  // local python3 compiles the file, those are gaps of graphlint's parser,
  // said as warnings, not the user's syntax errors.
  bool Gap = Python && Python->Compiles;
  for (const auto &[Loc, What] : Syntax)
    (Gap ? E.Warnings : E.Errors)
        .push_back({fmt::format("{}:{}:{}", Loc.File, Loc.Line, Loc.Column),
                    Gap ? fmt::format("graphlint's Python parser cannot read this line ({}), "
                                      "though python3 compiles the file; findings near here "
                                      "may be missing",
                                      What)
                        : fmt::format("{}; the rest of the file is still analysed, findings "
                                      "near here may be missing",
                                      What)});
  indexModule(*M);
  if (PackIndex)
    E.Index = packIndex(*M);
  E.Parts = partHashes(*M);
  return M;
}

} // namespace

bool isPythonFile(const std::string &Path) {
  auto Dot = Path.rfind('.');
  if (Dot == std::string::npos)
    return false;
  std::string Ext = Path.substr(Dot);
  return Ext == ".py" || Ext == ".pyi";
}

PyResult analyzePythonFiles(const std::vector<std::string> &Files, const SourceRoots &Roots,
                            const RuleSet &Rules, unsigned Jobs, Progress *Shown,
                            const std::function<bool(size_t)> &Mine, const PyCacheSetup *Setup) {
  const size_t N = Files.size();
  PyResult Res;
  Res.Summaries.resize(N);
  Res.Errors.resize(N);
  const std::vector<ModuleName> Names = nameModules(Files, Roots);
  std::vector<std::string> Paths(N), Texts(N), Hashes(N);
  std::vector<char> Readable(N, 0);
  parallelFor(N, Jobs, [&](size_t I) {
    Paths[I] = fs::absolute(Files[I]).lexically_normal().string();
    std::optional<std::string> Text = readFileBytes(Files[I]);
    if (!Text)
      return;
    Texts[I] = std::move(*Text);
    Hashes[I] = contentHash(Texts[I]);
    Readable[I] = 1;
  });

  // A shard summarises only its part, which leaves the other modules'
  // entries incomplete: shards run without the cache.
  std::optional<PyResultCache> Cache;
  if (Setup && Setup->Store && Setup->Store->enabled() && !Mine) {
    std::vector<size_t> Order(N);
    std::iota(Order.begin(), Order.end(), 0);
    std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) { return Paths[A] < Paths[B]; });
    KeyBuilder Program;
    Program.add("python").add(Setup->Fingerprint);
    for (size_t I : Order) {
      Program.add(Paths[I]).add(Names[I].Module).add(Names[I].Package);
      for (const auto &A : Names[I].Aliases)
        Program.add(A);
    }
    Cache.emplace(*Setup->Store, Program.final());
  }
  const std::optional<PyManifest> Old = Cache ? Cache->manifest() : std::nullopt;
  auto oldRecord = [&](size_t I) -> const PyFileRecord * {
    if (!Old)
      return nullptr;
    auto It = Old->Files.find(Paths[I]);
    return It == Old->Files.end() ? nullptr : &It->second;
  };

  // Each module: its index from the cache when its text is unchanged (its
  // tree is parsed only if some analysis reads it), else parsed now.
  std::vector<PyModuleEntry> Entries(N);
  std::vector<char> Changed(N, 1);
  std::vector<std::unique_ptr<PyModuleInfo>> Mods(N);
  parallelFor(N, Jobs, [&](size_t I) {
    if (!Readable[I]) {
      Res.Errors[I].push_back({Files[I], "cannot read the file (does it exist?)"});
      return;
    }
    if (const PyFileRecord *R = oldRecord(I); R && R->Hash == Hashes[I])
      if (auto E = Cache->entry(Paths[I], Hashes[I], Names[I].Module)) {
        auto M = newModule(Paths[I], Names[I]);
        if (!E->Parsed || unpackIndex(E->Index, *M)) {
          Entries[I] = std::move(*E);
          Changed[I] = 0;
          if (Entries[I].Parsed) {
            M->Text = std::move(Texts[I]);
            Mods[I] = std::move(M);
          }
          return;
        }
      }
    Mods[I] = parseModule(Files[I], Paths[I], std::move(Texts[I]), Names[I], Entries[I],
                          Cache.has_value());
  });

  // Only edits inside the code of modules keep the others' results: a
  // changed name, import or base class (an interface) redoes everything.
  std::vector<PyFileRecord> Records(N);
  std::set<std::string> ChangedPaths;
  // The pieces of changed modules whose text changed; and the changed
  // modules whose earlier pieces are unknown (their old entry is gone),
  // where any read of them counts.
  std::set<std::uint64_t> ChangedParts;
  std::set<std::string> ChangedWhole;
  bool Incremental = Old.has_value();
  for (size_t I = 0; I < N; ++I) {
    // Which modules read a file that can no longer be read is not known
    // from the names the manifest keeps: all of them are analysed again.
    if (!Readable[I]) {
      Incremental = false;
      continue;
    }
    Records[I].Hash = Hashes[I];
    const PyFileRecord *R = oldRecord(I);
    if (!Changed[I] && R) {
      Records[I].Interface = R->Interface;
      continue;
    }
    ChangedPaths.insert(Paths[I]);
    Records[I].Interface = Entries[I].Parsed ? interfaceHash(*Mods[I]) : "";
    Incremental &= R && R->Interface == Records[I].Interface;
    if (!Incremental)
      continue;
    auto Before = Cache->entry(Paths[I], R->Hash, Names[I].Module);
    if (!Before) {
      ChangedWhole.insert(Paths[I]);
      continue;
    }
    changedParts(Before->Parts, Entries[I].Parts, ChangedParts);
  }
  auto readChanged = [&](const PyReads &Read) {
    return std::any_of(Read.Modules.begin(), Read.Modules.end(),
                       [&](const std::string &P) { return ChangedWhole.count(P) > 0; }) ||
           std::any_of(Read.Parts.begin(), Read.Parts.end(),
                       [&](std::uint64_t K) { return ChangedParts.count(K) > 0; });
  };
  auto dirty = [&](PyStage S, size_t I) {
    return !Incremental || Changed[I] || readChanged(oldRecord(I)->Reads[S]);
  };
  std::vector<char> Redone(N, 0);
  // Runs Stage of module I again, recording the code it reads, or keeps
  // what the cache holds and what that read.
  auto stage = [&](PyStage S, size_t I, bool Again, const std::function<void()> &Run) {
    if (!Again) {
      Records[I].Reads[S] = oldRecord(I)->Reads[S];
      return false;
    }
    Redone[I] = 1;
    // What a stage read is kept for the cache alone: without one, noting
    // every read would cost a set insertion per look-up.
    std::optional<PyProgram::ReadLog> Log;
    if (Cache)
      Log.emplace(Records[I].Reads[S]);
    Run();
    return true;
  };

  // On the heap, so that it can be handed to dropAtExit whole.
  auto Program = std::make_unique<PyProgram>();
  PyProgram &P = *Program;
  std::vector<size_t> Index;
  for (size_t I = 0; I < N; ++I)
    if (Mods[I]) {
      Index.push_back(I);
      P.Modules.push_back(std::move(Mods[I]));
    }
  P.link();
  for (size_t I = 0; I < N; ++I)
    Res.Lines += Entries[I].Lines;
  // Which methods no code names is a fact of the whole program, kept out of
  // each module's interface: when it moves, every module is analysed again.
  const std::string NeverNamed = contentHash(packBinary(P.neverNamed()));
  Incremental = Incremental && Old->NeverNamed == NeverNamed;

  std::map<std::string, const Rule *> CheckRules;
  for (const auto &R : Rules.Rules)
    for (const auto &C : R.Python.Match)
      if (C.K == MatchClause::Kind::Check)
        for (const auto &Name : C.Names)
          CheckRules[Name] = &R;
  auto Checks = makeAllPyChecks(Rules);
  const size_t Present = Index.size();
  // The few modules an edit redoes would each parse, on one core, the trees
  // of the modules they read: those their last analysis read are parsed
  // first, on every core.
  if (Incremental) {
    std::set<std::string> WillRead;
    for (size_t I : Index)
      if (Changed[I] || dirty(LearnFirst, I) || dirty(Summarise, I))
        if (const PyFileRecord *R = oldRecord(I))
          for (const PyReads &Read : R->Reads)
            WillRead.insert(Read.Modules.begin(), Read.Modules.end());
    std::vector<const PyModuleInfo *> Ahead;
    for (const auto &M : P.Modules)
      if (WillRead.count(M->Path))
        Ahead.push_back(M.get());
    parallelFor(Ahead.size(), Jobs, [&](size_t K) { P.tree(*Ahead[K]); });
  }
  // What callers pass is learned from every call at once, with nothing
  // known yet; a class handed in as an object (`model_class=Llama`) types the
  // instances built from it only after that, and an instance handed in is
  // known to be one only after that where it is handed on (`make(m)` calling
  // `_make((m,))`), so the functions that take classes or instances, and
  // their classes, are read again (scopesToReadAgain), once per round after
  // the first (LearnRounds), so that an instance kept on self by one class
  // and handed on from there to another (`GraphCache(self.model)`, then
  // `trace(self.model)`) is known too, a few hand-offs deep.
  parallelFor(Present, Jobs, [&](size_t K) {
    size_t I = Index[K];
    stage(LearnFirst, I, dirty(LearnFirst, I), [&] {
      Entries[I].Learned[0] = {};
      learnParameters(P, P.tree(*P.Modules[K]), Rules, Entries[I].Learned[0]);
    });
  });
  bool HandsClasses = false;
  for (size_t I : Index) {
    P.Learned.merge(Entries[I].Learned[0]);
    HandsClasses |= !Entries[I].Learned[0].ClassObjects.empty() ||
                    !Entries[I].Learned[0].Classes.empty() ||
                    !Entries[I].Learned[0].ElementClasses.empty();
    // Without a cache, a module's own copy of what it taught is read by
    // nothing once the program holds it.
    if (!Cache)
      Entries[I].Learned[0] = {};
  }
  P.knowBuilt();
  std::array<std::string, LearnRounds - 1> LearnedAfter;
  bool Moved = false;
  std::optional<std::set<std::string>> Grown; // what the last round learned more of
  // Wrappers of graphed-callables helpers new in the last round, and the
  // functions newly known to take tensors (a captured callable's
  // parameters, or a tensor some caller passes): those that hand their
  // parameters on tell their callees in the next round, a hop deeper each.
  std::set<std::string> NewWrappers, TensorsGrown;
  for (const auto &[F, Is] : P.Learned.GraphedParams)
    NewWrappers.insert(F);
  for (const auto &[F, Is] : P.Learned.TensorParams)
    TensorsGrown.insert(F);
  TensorsGrown.insert(P.Learned.Graphed.begin(), P.Learned.Graphed.end());
  for (int Round = 1; Round < LearnRounds; ++Round) {
    LearnedAfter[Round - 1] = learnedHash(P);
    Moved = Moved || (Incremental && LearnedAfter[Round - 1] != Old->LearnedAfter[Round - 1]);
    const auto St = static_cast<PyStage>(LearnFirst + Round);
    const std::set<std::string> *Last = Grown ? &*Grown : nullptr;
    const std::set<std::string> Keeping = keepingClasses(P, Last);
    parallelFor(Present, Jobs, [&](size_t K) {
      size_t I = Index[K];
      const PyModuleInfo &M = *P.Modules[K];
      std::vector<std::string> Scopes;
      if (HandsClasses && (!Last || !Last->empty()))
        Scopes = scopesToReadAgain(P, M, Keeping, Last);
      if (callsWrappers(M, NewWrappers))
        Scopes = {M.Module};
      else
        for (const auto &F : M.Functions)
          if (P.Learned.HandsOn.count(F.QualName) && TensorsGrown.count(F.QualName))
            Scopes.push_back(F.QualName);
      if (Scopes.empty()) {
        Entries[I].Learned[Round] = {};
        Records[I].Reads[St] = {};
        return;
      }
      stage(St, I, Moved || dirty(St, I), [&] {
        Entries[I].Learned[Round] = {};
        learnParameters(P, P.tree(M), Rules, Entries[I].Learned[Round], &Scopes);
      });
    });
    Grown.emplace();
    TensorsGrown.clear();
    NewWrappers.clear();
    for (size_t I : Index) {
      Grown->merge(grownBy(P.Learned, Entries[I].Learned[Round]));
      TensorsGrown.merge(tensorsGrownBy(P.Learned, Entries[I].Learned[Round]));
      indicesGrownBy(P.Learned.GraphedParams, Entries[I].Learned[Round].GraphedParams, NewWrappers);
      P.Learned.merge(Entries[I].Learned[Round]);
      if (!Cache)
        Entries[I].Learned[Round] = {};
    }
  }
  const std::string SwapsFrom = learnedHash(P);
  PyReads SwapReads;
  if (Incremental && Old->SwapsFrom == SwapsFrom && !readChanged(Old->SwapReads)) {
    P.Learned.SwappedClasses = Old->Swapped;
    SwapReads = Old->SwapReads;
  } else {
    PyProgram::ReadLog Log(SwapReads);
    learnSwappedClasses(P);
  }
  const std::string Learned = learnedHash(P);
  const bool TablesMoved = Moved || (Incremental && Learned != Old->Learned);

  // Every tree stays until the last module is summarised (any summary may
  // read any module's code), and the summaries made meanwhile take half as
  // much memory again as the trees: each one made now is kept packed and
  // compressed, a small fraction of that, until the trees are freed (those
  // the cache gave back were read without most trees).
  std::vector<PackedValue> Packed(N);
  std::atomic<size_t> FromCache{0};
  parallelFor(Present, Jobs, [&](size_t K) {
    size_t I = Index[K];
    if (Mine && !Mine(I))
      return;
    bool Again = stage(Summarise, I, TablesMoved || dirty(Summarise, I), [&] {
      Entries[I].Summary = {};
      summarise(P, P.tree(*P.Modules[K]), Rules, CheckRules, Checks, Entries[I].Summary);
    });
    if (Again) {
      Packed[I] = packCompressed(Entries[I].Summary);
      Entries[I].Summary = {};
    }
    FromCache += !Again;
    if (Shown)
      Shown->fileDone(P.Modules[K]->Path, !Again);
  });
  Res.FromCache = FromCache;

  // The syntax trees are read by nothing after the summaries: freed now, so
  // that unpacking and joining the summaries reuses their memory instead of
  // adding to the peak.
  parallelFor(P.Modules.size(), Jobs, [&](size_t K) { P.Modules[K]->dropTree(); });
#ifdef __GLIBC__
  // The threads' heaps keep what they freed: it goes back to the system,
  // and unpacking and the join take what they need afresh.
  malloc_trim(0);
#endif
  std::vector<char> Lost(N, 0);
  parallelFor(N, Jobs, [&](size_t I) {
    if (Packed[I].Bytes.empty())
      return;
    if (!unpackCompressed(Packed[I], Entries[I].Summary)) {
      Lost[I] = 1;
      Entries[I].Errors.push_back(
          {Files[I], "graphlint lost this file's results while holding them (out of memory?): "
                     "findings that pass through it are missing; run again with fewer jobs (-j)"});
    }
    Packed[I] = {};
  });

  if (Cache) {
    parallelFor(N, Jobs, [&](size_t I) {
      if (Readable[I] && (Changed[I] || Redone[I]) && !Lost[I])
        Cache->storeEntry(Paths[I], Hashes[I], Names[I].Module, Entries[I]);
    });
    if (!Old || std::any_of(Redone.begin(), Redone.end(), [](char C) { return C; }) ||
        !ChangedPaths.empty()) {
      PyManifest New;
      New.LearnedAfter = LearnedAfter;
      New.NeverNamed = NeverNamed;
      New.Learned = Learned;
      New.SwapsFrom = SwapsFrom;
      New.SwapReads = std::move(SwapReads);
      New.Swapped = P.Learned.SwappedClasses;
      for (size_t I = 0; I < N; ++I)
        if (Readable[I])
          New.Files.emplace(Paths[I], std::move(Records[I]));
      Cache->storeManifest(New);
    }
  }

  for (size_t I = 0; I < N; ++I) {
    if (Entries[I].Parsed && (!Mine || Mine(I)))
      Res.Summaries[I] = std::move(Entries[I].Summary);
    if (Res.Summaries[I].File.empty())
      Res.Summaries[I].File = Files[I];
    Res.Errors[I].insert(Res.Errors[I].end(), Entries[I].Errors.begin(), Entries[I].Errors.end());
    if (!Mine || Mine(I))
      Res.Warnings.insert(Res.Warnings.end(), Entries[I].Warnings.begin(),
                          Entries[I].Warnings.end());
    else
      Res.Errors[I].clear();
  }
  dropAtExit(std::move(Program));
  dropAtExit(std::move(Entries));
  dropAtExit(std::move(Texts));
  dropAtExit(std::move(Records));
  dropAtExit(std::move(Old));
  return Res;
}

} // namespace graphsafe::lint::py
