#include "PyModeFlags.h"

#include "PyCallGraph.h"
#include "PyContext.h"
#include "PyObjectFacts.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

namespace graphsafe::lint::py {

namespace {

std::string globalKey(const PyModuleInfo &M, std::string_view Name) {
  return M.Module + "." + std::string(Name);
}

// The names a function declares `global`, its nested scopes left out;
// found once per function in a module's analysis.
const std::set<std::string, std::less<>> &declaredGlobals(PyTypeCache &C, const PySource &S,
                                                          const PyFunctionDef &F) {
  auto [It, New] = C.DeclaredGlobals.try_emplace(&F);
  if (!New)
    return It->second;
  std::set<std::string, std::less<>> &Out = It->second;
  walk(F.body(), [&](TSNode N) {
    if (isScope(N))
      return false;
    if (is(N, "global_statement"))
      for (TSNode Name : namedChildren(N))
        Out.insert(std::string(S.text(Name)));
    return !is(N, "global_statement");
  });
  return Out;
}

// Whether Name is this function's own: a parameter, or bound by it and not
// declared global (`prev = _MODE` binds prev; `global _MODE; _MODE = True`
// does not bind _MODE).
bool isLocal(const PyTypes &T, std::string_view Name, unsigned Offset,
             const std::set<std::string, std::less<>> &Globals) {
  if (Globals.count(Name))
    return false;
  return T.parameterAt(Name, Offset) >= 0 || !ts_node_is_null(T.boundExpr(Name, Offset)) ||
         !ts_node_is_null(T.enteredExpr(Name, Offset)) || T.closureScope(Name);
}

// The one project function a call runs, if the call names one directly, or
// is `self.m()` that no subclass overrides (a runner's own helper).
std::string calledFunction(const PyTypes &T, TSNode Call) {
  Callees Cs = calleesOf(T, Call);
  if (!Cs.SelfMethod.empty() && !Cs.Dynamic && !T.F.ClassQName.empty()) {
    std::vector<std::string> Runs = T.P.dispatch(T.F.ClassQName, Cs.SelfMethod, false);
    return Runs.size() == 1 && T.P.isFunction(Runs.front()) ? Runs.front() : "";
  }
  if (Cs.Dynamic || !Cs.SelfMethod.empty() || Cs.Keys.size() != 1)
    return "";
  const std::string &K = Cs.Keys.front();
  if (K.rfind("py:", 0) != 0 || !T.P.isFunction(K.substr(3)))
    return "";
  return K.substr(3);
}

bool contextVarGlobal(const PyModuleInfo &M, std::string_view Name) {
  return M.ContextVars.find(std::string(Name)) != M.ContextVars.end();
}

// `NAME.get(...)` of a ContextVar global of M: NAME, else "".
std::string_view contextVarRead(const PyModuleInfo &M, TSNode E) {
  E = unparen(E);
  if (!is(E, "call"))
    return {};
  TSNode Fn = unparen(field(E, "function"));
  if (!is(Fn, "attribute") || M.Src->text(field(Fn, "attribute")) != "get" ||
      !is(unparen(field(Fn, "object")), "identifier"))
    return {};
  std::string_view Name = M.Src->text(unparen(field(Fn, "object")));
  return contextVarGlobal(M, Name) ? Name : std::string_view{};
}

// For a getter of a ContextVar (`return _CTX.get()`, or `ctx = _CTX.get();
// if ctx is None: ctx = Context(); return ctx`): the ContextVar's name.
std::string_view contextVarGetter(const PyModuleInfo &M, const PyFunctionDef &F) {
  const PySource &S = *M.Src;
  std::string_view Var, Local;
  bool Other = false;
  walk(F.body(), [&](TSNode N) {
    if (isScope(N) || Other)
      return false;
    if (is(N, "return_statement")) {
      TSNode V = unparen(ts_node_named_child(N, 0));
      if (std::string_view Read = contextVarRead(M, V); !Read.empty() && (Var.empty() || Var == Read))
        Var = Read;
      else if (is(V, "identifier") && (Local.empty() || Local == S.text(V)))
        Local = S.text(V);
      else
        Other = true;
      return false;
    }
    return true;
  });
  if (Other || (Var.empty() && Local.empty()))
    return {};
  if (Local.empty())
    return Var;
  // The local holds what the ContextVar gives, or a default object made
  // when it gives None.
  walk(F.body(), [&](TSNode N) {
    if (isScope(N) || Other)
      return false;
    if (is(N, "assignment") && S.text(unparen(field(N, "left"))) == Local) {
      TSNode R = unparen(field(N, "right"));
      if (std::string_view Read = contextVarRead(M, R); !Read.empty() && (Var.empty() || Var == Read))
        Var = Read;
      else if (!is(R, "call"))
        Other = true;
    }
    return true;
  });
  return Other ? std::string_view{} : Var;
}

// For a getter (no parameters, its body `return NAME` of a module global,
// after any docstring): the global's key.
std::string getterGlobal(const PyProgram &P, const std::string &Function) {
  // The index says first whether the body can be one: most calls are not
  // getters, and their callers need not depend on those bodies.
  const PyFunctionDef *Idx = P.functionIndex(Function);
  if (!Idx || !Idx->MayGetGlobal)
    return "";
  const PyFunctionDef *F = P.function(Function);
  const PyModuleInfo *M = P.moduleOfFunction(Function);
  if (!F || !M || F->IsLambda || F->IsModuleBody || !callerParameters(*F).empty() ||
      !F->ClassQName.empty())
    return "";
  const PySource &S = *M->Src;
  if (std::string_view Var = contextVarGetter(*M, *F); !Var.empty())
    return globalKey(*M, Var);
  TSNode Returned{};
  for (TSNode Stmt : namedChildren(F->body())) {
    if (is(Stmt, "comment"))
      continue;
    if (is(Stmt, "expression_statement") && ts_node_named_child_count(Stmt) == 1 &&
        is(ts_node_named_child(Stmt, 0), "string") && ts_node_is_null(Returned))
      continue;
    if (!is(Stmt, "return_statement") || !ts_node_is_null(Returned))
      return "";
    Returned = unparen(ts_node_named_child(Stmt, 0));
  }
  if (!is(Returned, "identifier"))
    return "";
  std::string_view Name = S.text(Returned);
  // A module's own top-level function or class of that name is not a flag.
  if (M->Defs.count(std::string(Name)) || M->Imports.count(std::string(Name)))
    return "";
  return globalKey(*M, Name);
}

// The literals a call passes, as part of a memo key.
std::string argumentsKey(const std::vector<ConstArg> &Args) {
  std::string Key;
  for (const ConstArg &A : Args)
    Key += "|" + std::to_string(A.Index) + (A.Truthy ? "t" : "f") + (A.IsNone ? "n" : "");
  return Key;
}

// What a name, literal or getter call evaluates to on one path.
struct Sym {
  enum class K { Unknown, Known, Entry } Kind = K::Unknown;
  bool Truthy = false;
  bool IsNone = false;
  std::string Global; // Entry: the global's value where the function was entered
  static Sym known(bool Truthy, bool IsNone = false) { return {K::Known, Truthy, IsNone, ""}; }
  static Sym entry(std::string G) { return {K::Entry, false, false, std::move(G)}; }
  bool operator<(const Sym &O) const {
    return std::tie(Kind, Truthy, IsNone, Global) < std::tie(O.Kind, O.Truthy, O.IsNone, O.Global);
  }
};

enum class Tri { Unknown, True, False };

// One way through a function: what it assigned to globals, what it must have
// found them holding on entry, what its locals hold.
struct Path {
  std::map<std::string, Tri> Assigned;
  std::map<std::string, bool> Entry;
  std::map<std::string, Sym, std::less<>> Locals;
  bool Broken = false; // left the loop it is in (break, continue)
  bool operator<(const Path &O) const {
    return std::tie(Assigned, Entry, Locals, Broken) <
           std::tie(O.Assigned, O.Entry, O.Locals, O.Broken);
  }
};

using Paths = std::vector<Path>;

void dedupe(Paths &Ps) {
  std::sort(Ps.begin(), Ps.end());
  Ps.erase(std::unique(Ps.begin(), Ps.end(),
                       [](const Path &A, const Path &B) { return !(A < B) && !(B < A); }),
           Ps.end());
}

// The value of a global on a path: assigned there, or constrained on entry.
// An attribute of a global object (`MOD._CONTEXT:is_prefill`) is unknown
// where the object itself was replaced without it.
Sym valueOn(const Path &Pa, const std::string &Key) {
  if (auto It = Pa.Assigned.find(Key); It != Pa.Assigned.end())
    return It->second == Tri::Unknown ? Sym{} : Sym::known(It->second == Tri::True);
  for (size_t Colon = Key.find(':'); Colon != std::string::npos; Colon = Key.find(':', Colon + 1))
    if (Pa.Assigned.count(Key.substr(0, Colon)))
      return {};
  if (auto It = Pa.Entry.find(Key); It != Pa.Entry.end())
    return Sym::known(It->second);
  return Sym::entry(Key);
}

// Whether the global Key ("module.NAME") is assigned a call's result by a
// function declaring it `global`: an object a setter replaces.
bool builtGlobal(const PyProgram &P, const std::string &Key) {
  size_t Dot = Key.rfind('.');
  const PyModuleInfo *M = Dot == std::string::npos ? nullptr : P.moduleNamed(Key.substr(0, Dot));
  return M && (M->GlobalsBuilt.count(Key.substr(Dot + 1)) ||
               contextVarGlobal(*M, std::string_view(Key).substr(Dot + 1)));
}

// Drops what a path knew of the attributes of the global object Key.
void forgetAttributes(Path &Pa, const std::string &Key) {
  const std::string Prefix = Key + ":";
  for (auto It = Pa.Assigned.lower_bound(Prefix);
       It != Pa.Assigned.end() && It->first.compare(0, Prefix.size(), Prefix) == 0;)
    It = Pa.Assigned.erase(It);
}

// The literals a call passes Fn, and the caller's own parameters it passes
// on where Params knows their literal.
std::vector<ConstArg> knownArguments(const PyTypes &T, const std::string &Fn, TSNode Call,
                                     const std::map<std::string, Sym, std::less<>> &Params) {
  std::vector<ConstArg> Args;
  std::vector<std::string> Names;
  for (ConstArg A : literalArguments(T, Fn, Call)) {
    if (A.IfKwargsEmpty)
      continue;
    if (A.From >= 0) {
      if (Names.empty())
        Names = parameterNames(*T.M.Src, T.F);
      auto It = A.From < static_cast<int>(Names.size()) ? Params.find(Names[A.From]) : Params.end();
      if (It == Params.end() || It->second.Kind != Sym::K::Known)
        continue;
      A = ConstArg{A.Index, It->second.Truthy, It->second.IsNone};
    }
    Args.push_back(A);
  }
  return Args;
}

// Runs functions over their paths, as far as they decide module globals.
class FlagInterpreter {
public:
  using RunMemo = std::map<std::string, std::optional<Paths>>;
  // The runs are remembered for the whole module's analysis: each capture
  // statement runs its function from the entry again, through the same calls.
  FlagInterpreter(const PyProgram &P, PyTypeCache &Cache) : P(P), Cache(Cache), Memo(memo(Cache)) {}

  // The paths by which Function returns (UntilYield: reaches its first
  // yield), locals dropped; nothing when there are too many to follow.
  std::optional<Paths> run(const std::string &Function, const std::vector<ConstArg> &Args,
                           int Depth, bool UntilYield) {
    std::string MemoKey = Function + (UntilYield ? "|y" : "|r") + std::to_string(Depth);
    MemoKey += argumentsKey(Args);
    if (auto It = Memo.find(MemoKey); It != Memo.end())
      return It->second;
    if (Active.count(Function))
      return std::nullopt; // recursion: give up rather than guess
    Active.insert(Function);
    auto Out = runUncached(Function, Args, Depth, UntilYield);
    Active.erase(Function);
    Memo[MemoKey] = Out;
    return Out;
  }

  // The paths from the entry of T's function to N, through the `with`
  // blocks and branches around it; nothing when a loop or a handler holds N,
  // or there are too many paths to follow.
  std::optional<Paths> runTo(const PyTypes &T, TSNode N) {
    Frame Fr{T, declaredGlobals(Cache, *T.M.Src, T.F), {}, false, 0, {}, false};
    Fr.Target = N;
    block(Fr, T.F.body(), {Path{}});
    if (Fr.GaveUp || !Fr.Reached)
      return std::nullopt;
    return Fr.AtTarget;
  }

private:
  static constexpr size_t MaxPaths = 64;
  static constexpr int MaxDepth = 4;
  static constexpr unsigned MaxSteps = 20000;
  static constexpr int MaxRounds = 4;
  unsigned Steps = 0;

  struct Frame {
    const PyTypes &T;
    const std::set<std::string, std::less<>> &Globals; // declared `global`
    std::map<std::string, Sym, std::less<>> Params;
    bool UntilYield = false;
    int Depth = 0;
    Paths Exits;
    bool GaveUp = false;
    // runTo: the node to stop at, and the paths that reached it.
    TSNode Target{};
    bool Reached = false;
    Paths AtTarget;
  };

  std::optional<Paths> runUncached(const std::string &Function, const std::vector<ConstArg> &Args,
                                   int Depth, bool UntilYield) {
    const PyFunctionDef *F = P.function(Function);
    const PyModuleInfo *M = P.moduleOfFunction(Function);
    if (!F || !M || F->IsLambda || F->IsModuleBody)
      return std::nullopt;
    ++Cache.Depth;
    PyTypes T(P, *M, *F, Cache);
    --Cache.Depth;
    Frame Fr{T, declaredGlobals(Cache, *M->Src, *F), {}, UntilYield, Depth, {}, false};
    std::vector<std::string> Names = parameterNames(*M->Src, *F);
    for (const ConstArg &A : Args)
      if (A.Index < Names.size() && A.From < 0 && A.Global.empty())
        Fr.Params[Names[A.Index]] = Sym::known(A.Truthy, A.IsNone);
    Paths Live = block(Fr, F->body(), {Path{}});
    if (Fr.GaveUp)
      return std::nullopt;
    // Falling off the end returns; a context manager that never yields
    // raises on entry instead.
    if (!UntilYield)
      Fr.Exits.insert(Fr.Exits.end(), Live.begin(), Live.end());
    for (Path &E : Fr.Exits) {
      E.Locals.clear();
      E.Broken = false;
    }
    dedupe(Fr.Exits);
    return Fr.Exits;
  }

  static Tri triOf(const Sym &V) {
    return V.Kind != Sym::K::Known ? Tri::Unknown : V.Truthy ? Tri::True : Tri::False;
  }

  // A source of builtAttributes on the frame's paths: a literal, or the
  // frame's parameter bound to one.
  static Tri triOf(const Frame &Fr, const ConstArg &Held) {
    if (Held.From < 0)
      return Held.TruthKnown ? (Held.Truthy ? Tri::True : Tri::False) : Tri::Unknown;
    std::vector<std::string> Names = parameterNames(*Fr.T.M.Src, Fr.T.F);
    auto It = Held.FromAttr.empty() && Held.From < static_cast<int>(Names.size())
                  ? Fr.Params.find(Names[Held.From])
                  : Fr.Params.end();
    return It == Fr.Params.end() ? Tri::Unknown : triOf(It->second);
  }

  Sym readName(Frame &Fr, const Path &Pa, TSNode Name) {
    const PyTypes &T = Fr.T;
    std::string_view Text = T.M.Src->text(Name);
    if (auto It = Pa.Locals.find(Text); It != Pa.Locals.end())
      return It->second;
    if (auto It = Fr.Params.find(Text); It != Fr.Params.end())
      return It->second;
    if (isLocal(T, Text, beginOf(Name), Fr.Globals))
      return {};
    std::string Key = globalKey(T.M, Text);
    Sym V = valueOn(Pa, Key);
    // Only flags the function declares global are followed back to entry:
    // module constants (HAVE_X = True at import) would only split paths.
    if (V.Kind == Sym::K::Entry && !Fr.Globals.count(Text))
      return {};
    return V;
  }

  Sym eval(Frame &Fr, const Path &Pa, TSNode E) {
    E = unparen(E);
    const PySource &S = *Fr.T.M.Src;
    if (is(E, "true"))
      return Sym::known(true);
    if (is(E, "false"))
      return Sym::known(false);
    if (is(E, "none"))
      return Sym::known(false, true);
    if (is(E, "integer"))
      return Sym::known(std::strtod(std::string(S.text(E)).c_str(), nullptr) != 0.0);
    if (is(E, "identifier")) {
      // A local copied from a global on entry (`prev = _MODE`) is known once
      // a test on this path decided that entry value.
      Sym V = readName(Fr, Pa, E);
      if (V.Kind == Sym::K::Entry)
        if (auto It = Pa.Entry.find(V.Global); It != Pa.Entry.end())
          return Sym::known(It->second);
      return V;
    }
    if (is(E, "not_operator")) {
      Sym V = eval(Fr, Pa, field(E, "argument"));
      return V.Kind == Sym::K::Known ? Sym::known(!V.Truthy) : Sym{};
    }
    if (is(E, "call")) {
      std::string Fn = calledFunction(Fr.T, E);
      if (std::string Key = Fn.empty() ? "" : getterGlobal(P, Fn); !Key.empty())
        return valueOn(Pa, Key);
    }
    return {};
  }

  // The paths on which Cond evaluates to Want, each narrowed by what that
  // tells of the globals it reads.
  Paths refine(Frame &Fr, const Path &Pa, TSNode Cond, bool Want) {
    // A chain of `and`s refines its left side both ways at each step:
    // bounded, since a generated chain of hundreds would take forever.
    if (++Steps > MaxSteps) {
      Fr.GaveUp = true;
      return {Pa};
    }
    Cond = unparen(Cond);
    if (is(Cond, "not_operator"))
      return refine(Fr, Pa, field(Cond, "argument"), !Want);
    if (is(Cond, "boolean_operator")) {
      bool And = kind(ts_node_child(Cond, 1)) == "and";
      TSNode L = field(Cond, "left"), R = field(Cond, "right");
      // `a and b` holds where both do; fails where a does, or a holds and b fails.
      // `or` the same way round.
      Paths Out;
      bool Short = Want; // the value of `a` that decides alone: false for and, true for or
      if (And == Want) {
        for (const Path &A : refine(Fr, Pa, L, Want))
          for (Path &B : refine(Fr, A, R, Want))
            Out.push_back(std::move(B));
      } else {
        Out = refine(Fr, Pa, L, Short);
        for (const Path &A : refine(Fr, Pa, L, !Short))
          for (Path &B : refine(Fr, A, R, Want))
            Out.push_back(std::move(B));
      }
      return Out;
    }
    if (is(Cond, "comparison_operator") && ts_node_child_count(Cond) == 3 &&
        is(ts_node_child(Cond, 2), "none")) {
      std::string_view Op = kind(ts_node_child(Cond, 1));
      Sym V = eval(Fr, Pa, ts_node_child(Cond, 0));
      if (V.Kind != Sym::K::Known || (Op != "is" && Op != "is not"))
        return {Pa};
      bool Holds = (Op == "is") == V.IsNone;
      return Holds == Want ? Paths{Pa} : Paths{};
    }
    Sym V = eval(Fr, Pa, Cond);
    if (V.Kind == Sym::K::Known)
      return V.Truthy == Want ? Paths{Pa} : Paths{};
    if (V.Kind == Sym::K::Entry) {
      Path Q = Pa;
      Q.Entry[V.Global] = Want;
      return {Q};
    }
    return {Pa};
  }

  // A call's effect on the globals, on each path: the callee's paths joined
  // to the caller's where what each assumed of the globals agrees.
  // Enter: the call is a `with` item, and a @contextmanager's code up to its
  // yield is what runs; otherwise a context manager's call runs nothing yet.
  void applyCall(Frame &Fr, Paths &Live, TSNode Call, bool Enter = false) {
    // `_CONTEXT_VAR.set(Context(is_prefill=...))`: the ContextVar's value
    // replaced, as `global _CONTEXT; _CONTEXT = Context(...)` would.
    if (TSNode Fn = unparen(field(Call, "function"));
        !Enter && is(Fn, "attribute") && Fr.T.M.Src->text(field(Fn, "attribute")) == "set" &&
        is(unparen(field(Fn, "object")), "identifier")) {
      std::string_view Name = Fr.T.M.Src->text(unparen(field(Fn, "object")));
      CallArgs A = argsOf(*Fr.T.M.Src, Call);
      if (A.Positional.size() == 1 &&
          !isLocal(Fr.T, Name, beginOf(Call), Fr.Globals) && contextVarGlobal(Fr.T.M, Name)) {
        assignGlobal(Fr, Live, globalKey(Fr.T.M, Name), A.Positional[0]);
        return;
      }
    }
    std::string Fn = calledFunction(Fr.T, Call);
    if (Fn.empty() || isContextManager(P, Fn) != Enter)
      return;
    if (Fr.Depth + 1 >= MaxDepth) {
      // Too deep to follow: whatever it declares global may now hold anything.
      const PyFunctionDef *F = P.function(Fn);
      const PyModuleInfo *M = P.moduleOfFunction(Fn);
      if (F && M && !F->IsLambda && !F->IsModuleBody)
        for (const auto &G : declaredGlobals(Cache, *M->Src, *F))
          for (Path &Pa : Live)
            Pa.Assigned[globalKey(*M, G)] = Tri::Unknown;
      return;
    }
    auto Exits = run(Fn, knownArguments(Fr.T, Fn, Call, Fr.Params), Fr.Depth + 1, Enter);
    if (!Exits) {
      Fr.GaveUp = true;
      return;
    }
    Paths Out;
    for (const Path &Pa : Live) {
      if (Pa.Broken) {
        Out.push_back(Pa);
        continue;
      }
      for (const Path &E : *Exits) {
        Path Q = Pa;
        bool Feasible = true;
        for (const auto &[Key, Was] : E.Entry) {
          Sym Now = valueOn(Q, Key);
          if (Now.Kind == Sym::K::Known && Now.Truthy != Was)
            Feasible = false;
          else if (Now.Kind == Sym::K::Entry)
            Q.Entry[Key] = Was;
        }
        if (!Feasible)
          continue;
        // An object the callee replaced takes none of its old attributes along.
        for (const auto &[Key, V] : E.Assigned)
          forgetAttributes(Q, Key);
        for (const auto &[Key, V] : E.Assigned)
          Q.Assigned[Key] = V;
        Out.push_back(std::move(Q));
      }
    }
    Live = std::move(Out);
  }

  // The calls an expression makes, outermost last (arguments run first).
  void applyCallsIn(Frame &Fr, Paths &Live, TSNode E) {
    if (ts_node_is_null(E))
      return;
    std::vector<TSNode> Calls;
    walk(E, [&](TSNode N) {
      if (isScope(N))
        return false;
      if (is(N, "call"))
        Calls.push_back(N);
      return true;
    });
    for (auto It = Calls.rbegin(); It != Calls.rend() && !Fr.GaveUp; ++It)
      applyCall(Fr, Live, *It);
  }

  // The global Key given Value (null: something unknown).
  void assignGlobal(Frame &Fr, Paths &Live, const std::string &Key, TSNode Value) {
    // `_CONTEXT = Context(is_prefill, ...)`: the new object's attributes.
    std::map<std::string, Tri> Attrs;
    if (!ts_node_is_null(Value))
      for (const auto &[Attr, Held] : builtAttributes(Fr.T, Value))
        Attrs[Key + ":" + Attr] = triOf(Fr, Held);
    for (Path &Pa : Live) {
      if (Pa.Broken)
        continue;
      Pa.Assigned[Key] = triOf(ts_node_is_null(Value) ? Sym{} : eval(Fr, Pa, Value));
      forgetAttributes(Pa, Key);
      Pa.Assigned.insert(Attrs.begin(), Attrs.end());
    }
  }

  void assign(Frame &Fr, Paths &Live, TSNode Target, TSNode Value) {
    Target = unparen(Target);
    const PySource &S = *Fr.T.M.Src;
    if (is(Target, "identifier")) {
      std::string Name(S.text(Target));
      if (Fr.Globals.count(Name)) {
        assignGlobal(Fr, Live, globalKey(Fr.T.M, Name), Value);
        return;
      }
      for (Path &Pa : Live)
        if (!Pa.Broken)
          Pa.Locals[Name] = ts_node_is_null(Value) ? Sym{} : eval(Fr, Pa, Value);
      return;
    }
    // `_CONTEXT.is_prefill = True`, `get_context().is_prefill = True`, on
    // a global some function builds (`_CONTEXT = Context(...)`): stores into
    // other objects (`kernel.configs = [...]`) would only split paths.
    if (is(Target, "attribute") && !ts_node_is_null(Value)) {
      std::string Of = globalTested(Fr.T, field(Target, "object"));
      if (Of.empty() || !builtGlobal(P, Of))
        return;
      std::string Key = Of + ":" + std::string(S.text(field(Target, "attribute")));
      for (Path &Pa : Live)
        if (!Pa.Broken)
          Pa.Assigned[Key] = triOf(eval(Fr, Pa, Value));
      return;
    }
    if (is(Target, "pattern_list") || is(Target, "tuple_pattern") || is(Target, "list_pattern") ||
        is(Target, "tuple") || is(Target, "list"))
      for (TSNode Part : namedChildren(Target))
        assign(Fr, Live, Part, TSNode{});
  }

  void expression(Frame &Fr, Paths &Live, TSNode E) {
    if (is(E, "assignment") || is(E, "augmented_assignment")) {
      TSNode Right = field(E, "right");
      if (is(Right, "yield")) {
        yieldAt(Fr, Live);
        return;
      }
      applyCallsIn(Fr, Live, Right);
      // `x += 1` leaves nothing known; `x = y = v` binds each.
      bool Augmented = is(E, "augmented_assignment");
      assign(Fr, Live, field(E, "left"), Augmented ? TSNode{} : Right);
      if (is(Right, "assignment"))
        expression(Fr, Live, Right);
      return;
    }
    if (is(E, "yield")) {
      yieldAt(Fr, Live);
      return;
    }
    applyCallsIn(Fr, Live, E);
  }

  void yieldAt(Frame &Fr, Paths &Live) {
    if (Fr.UntilYield)
      endPaths(Fr, Live, true);
  }

  // The running paths stop here (those carried out of a loop go on); Keep:
  // as exits of the function.
  static void endPaths(Frame &Fr, Paths &Live, bool Keep) {
    for (Path &Pa : Live)
      if (Keep && !Pa.Broken)
        Fr.Exits.push_back(Pa);
    Live.erase(std::remove_if(Live.begin(), Live.end(), [](const Path &Pa) { return !Pa.Broken; }),
               Live.end());
  }

  // Paths split by a test; Then runs where it holds, the rest go on.
  Paths split(Frame &Fr, const Paths &Live, TSNode Cond, bool Want) {
    Paths Out;
    for (const Path &Pa : Live) {
      if (Pa.Broken) {
        if (Want)
          Out.push_back(Pa); // carried past the test unchanged, on one side only
        continue;
      }
      for (Path &Q : refine(Fr, Pa, Cond, Want))
        Out.push_back(std::move(Q));
    }
    return Out;
  }

  void statement(Frame &Fr, Paths &Live, TSNode St) {
    if (is(St, "expression_statement")) {
      for (TSNode E : namedChildren(St))
        expression(Fr, Live, E);
    } else if (is(St, "return_statement")) {
      applyCallsIn(Fr, Live, ts_node_named_child(St, 0));
      // A context manager returning before its yield raises on entry instead.
      endPaths(Fr, Live, !Fr.UntilYield);
    } else if (is(St, "raise_statement")) {
      endPaths(Fr, Live, false);
    } else if (is(St, "assert_statement")) {
      Live = split(Fr, Live, ts_node_named_child(St, 0), true);
    } else if (is(St, "break_statement") || is(St, "continue_statement")) {
      for (Path &Pa : Live)
        Pa.Broken = true;
    } else if (is(St, "if_statement")) {
      Paths Rest = Live, Out;
      auto clause = [&](TSNode Cond, TSNode Then) {
        Paths Taken = split(Fr, Rest, Cond, true);
        Rest = split(Fr, Rest, Cond, false);
        Paths Done = block(Fr, Then, std::move(Taken));
        Out.insert(Out.end(), Done.begin(), Done.end());
      };
      clause(field(St, "condition"), field(St, "consequence"));
      bool Else = false;
      for (TSNode C : namedChildren(St)) {
        if (is(C, "elif_clause")) {
          clause(field(C, "condition"), field(C, "consequence"));
        } else if (is(C, "else_clause")) {
          Paths Done = block(Fr, field(C, "body"), std::move(Rest));
          Out.insert(Out.end(), Done.begin(), Done.end());
          Else = true;
        }
      }
      if (!Else)
        Out.insert(Out.end(), Rest.begin(), Rest.end());
      Live = std::move(Out);
    } else if (is(St, "try_statement")) {
      Paths AtStart = Live, Out;
      Live = block(Fr, field(St, "body"), std::move(Live));
      TSNode Finally{};
      for (TSNode C : namedChildren(St)) {
        if (is(C, "except_clause") || is(C, "except_group_clause")) {
          // The exception may come before the body changed anything.
          TSNode Handler = ts_node_named_child(C, ts_node_named_child_count(C) - 1);
          Paths Done = block(Fr, Handler, AtStart);
          Out.insert(Out.end(), Done.begin(), Done.end());
        } else if (is(C, "else_clause")) {
          Live = block(Fr, field(C, "body"), std::move(Live));
        } else if (is(C, "finally_clause")) {
          Finally = ts_node_named_child(C, 0);
        }
      }
      Live.insert(Live.end(), Out.begin(), Out.end());
      if (!ts_node_is_null(Finally))
        Live = block(Fr, Finally, std::move(Live));
    } else if (is(St, "with_statement")) {
      for (TSNode Cm : withContexts(St))
        applyCallsIn(Fr, Live, Cm);
      Live = block(Fr, field(St, "body"), std::move(Live));
    } else if (is(St, "for_statement") || is(St, "while_statement")) {
      // No iteration, or one: enough for flags set once, not for counters.
      Paths Once = Live;
      if (is(St, "while_statement"))
        Once = split(Fr, Once, field(St, "condition"), true);
      Once = block(Fr, field(St, "body"), std::move(Once));
      for (Path &Pa : Once)
        Pa.Broken = false;
      Live.insert(Live.end(), Once.begin(), Once.end());
    } else if (is(St, "match_statement")) {
      Fr.GaveUp = true;
    }
    // def, class, import, global, pass, del: nothing a flag depends on.
    dedupe(Live);
    if (Live.size() > MaxPaths)
      Fr.GaveUp = true;
  }

  Paths block(Frame &Fr, TSNode Block, Paths Live) {
    if (ts_node_is_null(Block))
      return Live;
    for (TSNode St : namedChildren(Block)) {
      if (Fr.GaveUp || Fr.Reached ||
          std::all_of(Live.begin(), Live.end(), [](const Path &Pa) { return Pa.Broken; }))
        break;
      if (!ts_node_is_null(Fr.Target) && contains(St, Fr.Target)) {
        descend(Fr, Live, St);
        break;
      }
      statement(Fr, Live, St);
    }
    return Live;
  }

  // Into the statement that holds the target, down the way to it.
  void descend(Frame &Fr, Paths &Live, TSNode St) {
    auto inside = [&](TSNode N) { return !ts_node_is_null(N) && contains(N, Fr.Target); };
    auto reach = [&](const Paths &At) {
      for (const Path &Pa : At)
        if (!Pa.Broken)
          Fr.AtTarget.push_back(Pa);
      Fr.Reached = true;
    };
    if (is(St, "if_statement")) {
      Paths Rest = Live;
      // True when the target is in this clause.
      auto clause = [&](TSNode Cond, TSNode Then) {
        if (inside(Cond)) {
          reach(Rest);
          return true;
        }
        if (inside(Then)) {
          block(Fr, Then, split(Fr, Rest, Cond, true));
          return true;
        }
        Rest = split(Fr, Rest, Cond, false);
        return false;
      };
      if (clause(field(St, "condition"), field(St, "consequence")))
        return;
      for (TSNode C : namedChildren(St)) {
        if (is(C, "elif_clause") && clause(field(C, "condition"), field(C, "consequence")))
          return;
        if (is(C, "else_clause") && inside(C)) {
          block(Fr, field(C, "body"), std::move(Rest));
          return;
        }
      }
    } else if (is(St, "with_statement") && inside(field(St, "body"))) {
      for (TSNode Cm : withContexts(St))
        if (is(unparen(Cm), "call") && !Fr.GaveUp)
          applyCall(Fr, Live, unparen(Cm), /*Enter=*/true);
      block(Fr, field(St, "body"), std::move(Live));
      return;
    } else if (is(St, "try_statement") && inside(field(St, "body"))) {
      block(Fr, field(St, "body"), std::move(Live));
      return;
    } else if ((is(St, "for_statement") || is(St, "while_statement")) &&
               inside(field(St, "body"))) {
      // An iteration begins where the loop is entered or where one ended:
      // the body is run to its end until no new state begins one (a setter
      // the body calls before the target decides the globals at any count).
      TSNode Target = std::exchange(Fr.Target, TSNode{});
      auto entered = [&](Paths Ps) {
        if (is(St, "while_statement"))
          Ps = split(Fr, Ps, field(St, "condition"), true);
        for (Path &Pa : Ps)
          Pa.Broken = false;
        return Ps;
      };
      Paths Start = entered(Live);
      dedupe(Start);
      for (int Round = 0;; ++Round) {
        Paths Next = Start;
        Paths Ended = entered(block(Fr, field(St, "body"), Start));
        Next.insert(Next.end(), Ended.begin(), Ended.end());
        dedupe(Next);
        if (Fr.GaveUp || Round == MaxRounds || Next.size() > MaxPaths) {
          Fr.GaveUp = true;
          return;
        }
        if (Next.size() == Start.size())
          break; // dedupe keeps every start state: none new
        Start = std::move(Next);
      }
      Fr.Target = Target;
      block(Fr, field(St, "body"), std::move(Start));
      return;
    } else if (is(St, "for_statement") || is(St, "while_statement") || is(St, "try_statement") ||
               is(St, "match_statement")) {
      // A handler, or the loop's own header, may see the flags changed.
      Fr.GaveUp = true;
      return;
    }
    reach(Live);
  }

  const PyProgram &P;
  PyTypeCache &Cache;
  static RunMemo &memo(PyTypeCache &C) {
    if (!C.FlagRuns)
      C.FlagRuns = std::make_shared<RunMemo>();
    return *static_cast<RunMemo *>(C.FlagRuns.get());
  }
  RunMemo &Memo;
  std::set<std::string> Active;
};

// The globals every path leaves with one value: assigned it, or found
// holding it on entry and left alone.
std::vector<ConstArg> agreedFacts(const Paths &Exits) {
  std::vector<ConstArg> Facts;
  if (Exits.empty())
    return Facts;
  std::set<std::string> Keys;
  for (const Path &E : Exits) {
    for (const auto &[K, V] : E.Assigned)
      Keys.insert(K);
    for (const auto &[K, V] : E.Entry)
      Keys.insert(K);
  }
  for (const auto &K : Keys) {
    std::optional<bool> Agreed;
    bool Known = true;
    for (const Path &E : Exits) {
      std::optional<bool> V;
      if (Sym Now = valueOn(E, K); Now.Kind == Sym::K::Known)
        V = Now.Truthy;
      if (!V || (Agreed && *Agreed != *V)) {
        Known = false;
        break;
      }
      Agreed = V;
    }
    if (Known && Agreed) {
      ConstArg C;
      C.Truthy = *Agreed;
      C.Global = K;
      Facts.push_back(std::move(C));
    }
  }
  return Facts;
}

// What a `with` item that calls a @contextmanager holds the globals to.
std::vector<ConstArg> enteredFacts(const PyTypes &T, TSNode Cm) {
  Cm = unparen(Cm);
  if (!is(Cm, "call"))
    return {};
  std::string Fn = calledFunction(T, Cm);
  if (Fn.empty() || !isContextManager(T.P, Fn))
    return {};
  // At the top of a walk no parameter's literal is known.
  std::vector<ConstArg> Args = knownArguments(T, Fn, Cm, {});
  std::string Key = Fn + argumentsKey(Args);
  auto &Memo = T.cache().ModeFacts;
  if (auto It = Memo.find(Key); It != Memo.end())
    return It->second;
  FlagInterpreter I(T.P, T.cache());
  auto Exits = I.run(Fn, Args, 0, true);
  std::vector<ConstArg> Facts = Exits ? agreedFacts(*Exits) : std::vector<ConstArg>{};
  Memo[Key] = Facts;
  return Facts;
}

std::string globalTestedAt(const PyTypes &T, TSNode Atom, int Depth) {
  Atom = unparen(Atom);
  if (Depth > 4)
    return "";
  const PySource &S = *T.M.Src;
  if (is(Atom, "call")) {
    std::string Fn = calledFunction(T, Atom);
    return Fn.empty() ? "" : getterGlobal(T.P, Fn);
  }
  // `get_context().is_prefill`, `ctx.is_prefill` after `ctx = get_context()`.
  if (is(Atom, "attribute")) {
    std::string Of = globalTestedAt(T, field(Atom, "object"), Depth + 1);
    return Of.empty() ? "" : Of + ":" + std::string(S.text(field(Atom, "attribute")));
  }
  if (!is(Atom, "identifier"))
    return "";
  std::string_view Name = S.text(Atom);
  unsigned At = beginOf(Atom);
  if (T.parameterAt(Name, At) >= 0 || !ts_node_is_null(T.enteredExpr(Name, At)))
    return "";
  if (TSNode Bound = unparen(T.boundExpr(Name, At)); !ts_node_is_null(Bound)) {
    // `mode = is_mode_enabled()`, `mode = _MODE`: the global the local copies.
    // A name the function declares global reads the global itself.
    if (declaredGlobals(T.cache(), S, T.F).count(Name))
      return globalKey(T.M, Name);
    if (is(Bound, "call") || is(Bound, "identifier"))
      return globalTestedAt(T, Bound, Depth + 1);
    return "";
  }
  if (T.F.IsModuleBody || T.closureScope(Name) || T.M.Defs.count(std::string(Name)) ||
      T.M.Imports.count(std::string(Name)))
    return "";
  return globalKey(T.M, Name);
}

} // namespace

std::vector<std::pair<unsigned, ConstArg>> enclosingWithFacts(const PyTypes &T, TSNode N) {
  std::vector<std::pair<unsigned, ConstArg>> Out;
  TSNode Body = T.F.body();
  for (TSNode Cur = N; !ts_node_is_null(Cur) && !ts_node_eq(Cur, Body);) {
    TSNode Up = parentOf(Cur);
    if (is(Up, "with_statement") && ts_node_eq(Cur, field(Up, "body")))
      for (TSNode Cm : withContexts(Up))
        for (ConstArg &C : enteredFacts(T, Cm))
          Out.emplace_back(beginOf(Up), std::move(C));
    Cur = Up;
  }
  return Out;
}

std::string globalTested(const PyTypes &T, TSNode Atom) {
  // Asked again for each call and site under the same test: remembered.
  auto &Memo = T.cache().GlobalTests;
  if (auto It = Memo.find(Atom.id); It != Memo.end())
    return It->second;
  return Memo[Atom.id] = globalTestedAt(T, Atom, 0);
}

std::vector<ConstArg> modeFactsAt(const PyTypes &T, TSNode N, bool WholePath) {
  if (WholePath) {
    // Every path from the function's entry, calls before N included
    // (`enable_fast_mode()` then the capture); remembered per statement.
    TSNode St = N;
    while (!ts_node_is_null(parentOf(St)) && !is(parentOf(St), "block") &&
           !is(parentOf(St), "module"))
      St = parentOf(St);
    auto &Memo = T.cache().PathFacts;
    auto It = Memo.find(St.id);
    if (It == Memo.end()) {
      FlagInterpreter I(T.P, T.cache());
      auto At = I.runTo(T, St);
      It = Memo.emplace(St.id, At ? std::optional(agreedFacts(*At)) : std::nullopt).first;
    }
    if (It->second)
      return *It->second;
  }
  std::vector<ConstArg> Out;
  for (auto &[At, C] : enclosingWithFacts(T, N))
    // An inner block's value wins over an outer one's.
    if (std::none_of(Out.begin(), Out.end(),
                     [&](const ConstArg &O) { return O.Global == C.Global; }))
      Out.push_back(std::move(C));
  return Out;
}

bool PyFunctionContext::runsUnderModes(const std::vector<ParamTest> &When, TSNode N) const {
  if (std::all_of(When.begin(), When.end(), [](const ParamTest &P) { return P.Global.empty(); }))
    return true;
  return runsWith(When, modeFactsAt(T, N, contextAt(beginOf(N)) == CaptureContext::InRegion));
}

} // namespace graphsafe::lint::py
