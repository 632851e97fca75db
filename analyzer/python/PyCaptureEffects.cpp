#include "PyCaptureEffects.h"

#include "PyCallGraph.h"
#include "PyContext.h"

#include <algorithm>

namespace graphsafe::lint::py {

namespace {

constexpr int MaxDepth = 3;
constexpr const char *GlobalPrefix = "global:";

std::string rootOf(const std::string &Spelling) {
  return Spelling.substr(0, Spelling.find_first_of(".[("));
}

// Whether F binds Name itself: a parameter, or a target of an assignment,
// loop or `with ... as` in its body (not declared global).
bool bindsLocally(const PySource &S, const PyFunctionDef &F, const std::string &Name) {
  if (F.IsModuleBody)
    return false;
  if (!F.ClassQName.empty() && selfNameOf(S, F.Node) == Name)
    return true;
  for (TSNode P : callerParameters(F))
    if (TSNode N = parameterName(P); !ts_node_is_null(N) && S.text(N) == Name)
      return true;
  bool Bound = false, Global = false;
  walk(F.body(), [&](TSNode N) {
    if (Bound || Global || isScope(N))
      return false;
    if (is(N, "global_statement") || is(N, "nonlocal_statement")) {
      for (TSNode C : namedChildren(N))
        Global |= S.text(C) == Name;
      return false;
    }
    TSNode Target{};
    if (is(N, "assignment") || is(N, "augmented_assignment") || is(N, "for_statement"))
      Target = field(N, "left");
    else if (is(N, "as_pattern"))
      Target = field(N, "alias");
    if (!ts_node_is_null(Target))
      walk(Target, [&](TSNode X) {
        if (is(X, "attribute") || is(X, "subscript"))
          return false; // binds no name
        Bound |= is(X, "identifier") && S.text(X) == Name;
        return true;
      });
    return true;
  });
  return Bound && !Global;
}

// Whether T's function rebinds or resets Graph (canonical) before byte
// Before.
bool renewsBefore(const PyTypes &T, const std::string &Graph, unsigned Before) {
  const PySource &S = *T.M.Src;
  bool Found = false;
  walk(T.F.body(), [&](TSNode N) {
    if (Found || beginOf(N) >= Before || (isScope(N) && !ts_node_eq(N, T.F.Node)))
      return false;
    TSNode Renewed{};
    if (is(N, "assignment")) {
      Renewed = field(N, "left");
    } else if (is(N, "call")) {
      TSNode Fn = field(N, "function");
      if (is(Fn, "attribute") && S.text(field(Fn, "attribute")) == "reset")
        Renewed = field(Fn, "object");
    }
    Found =
        !ts_node_is_null(Renewed) && canonicalSpelling(T, std::string(S.text(Renewed))) == Graph;
    return !Found;
  });
  return Found;
}

// A spelling of the callee's (canonical in its terms) in the caller's
// terms at Call; empty when each call has its own object.
std::string mapToCaller(const PyTypes &Callee, const std::string &CalleeQ, const PyTypes &Caller,
                        TSNode Call, const std::string &Spelling) {
  if (Spelling.empty() || Spelling.rfind(GlobalPrefix, 0) == 0)
    return Spelling;
  const PySource &CS = *Callee.M.Src;
  const PySource &S = *Caller.M.Src;
  std::string Root = rootOf(Spelling), Rest = Spelling.substr(Root.size());
  const PyFunctionDef &F = Callee.F;
  TSNode Arg{};
  if (!F.ClassQName.empty() && selfNameOf(CS, F.Node) == Root) {
    TSNode Fn = unparen(field(Call, "function"));
    if (!is(Fn, "attribute"))
      return ""; // a constructor: a new object each call
    Arg = unparen(field(Fn, "object"));
    if (is(Arg, "call")) // super().m(): the caller's own self
      return is(field(Arg, "function"), "identifier") &&
                     S.text(field(Arg, "function")) == "super" && !Caller.F.ClassQName.empty()
                 ? canonicalSpelling(Caller, std::string(selfNameOf(S, Caller.F.Node)) + Rest)
                 : "";
  } else {
    std::vector<TSNode> Params = callerParameters(F);
    for (unsigned I = 0; I < Params.size() && ts_node_is_null(Arg); ++I) {
      TSNode N = parameterName(Params[I]);
      if (ts_node_is_null(N) || CS.text(N) != Root)
        continue;
      for (const auto &[Index, Value] : boundArguments(Caller, CalleeQ, Call))
        if (Index == I)
          Arg = unparen(Value);
      if (ts_node_is_null(Arg))
        return ""; // the default
    }
    if (ts_node_is_null(Arg))
      return ""; // a local of the callee
  }
  if (!is(Arg, "identifier") && !is(Arg, "attribute"))
    return ""; // built by the call's argument itself
  return canonicalSpelling(Caller, std::string(S.text(Arg)) + Rest);
}

using EffectList = std::vector<CaptureEffect>;

// Per function, in the module's type cache.
struct EffectMemo {
  std::map<std::string, EffectList> ByFunction;
  int Depth = 0;
};

EffectMemo &memoOf(PyTypeCache &Cache) {
  if (!Cache.CaptureEffects)
    Cache.CaptureEffects = std::make_shared<EffectMemo>();
  return *static_cast<EffectMemo *>(Cache.CaptureEffects.get());
}

EffectList effectsOf(const PyTypes &Caller, const CaptureSpec &Spec, const std::string &Q,
                     int Depth);

// F's events in the order they run, paired: a begin and its end make one
// capture; what is left begins or ends for F's caller. Spellings in F's
// canonical terms.
EffectList effectsIn(const PyTypes &T, const CaptureSpec &Spec, int Depth) {
  const PySource &S = *T.M.Src;
  struct Event {
    CaptureEffect E;
    unsigned At;
  };
  std::vector<Event> Events;
  std::set<unsigned> ContextCalls;
  walk(T.F.body(), [&](TSNode N) {
    if (isScope(N) && !ts_node_eq(N, T.F.Node))
      return false;
    if (is(N, "with_statement")) {
      for (TSNode V : withContexts(N))
        if (TSNode Call = capturingContext(T, Spec, V); !ts_node_is_null(Call)) {
          ContextCalls.insert(beginOf(V));
          CallArgs A = argsOf(S, Call);
          TSNode G = !A.Positional.empty() ? A.Positional[0] : A.keyword("cuda_graph");
          std::string Graph = ts_node_is_null(G) || !(is(G, "identifier") || is(G, "attribute"))
                                  ? ""
                                  : canonicalSpelling(T, std::string(S.text(G)));
          Events.push_back({{CaptureEffect::Captures, Graph, "", false, S.loc(N)}, beginOf(N)});
        }
      return true;
    }
    if (!is(N, "call") || ContextCalls.count(beginOf(N)))
      return true;
    TSNode Fn = field(N, "function");
    if (is(Fn, "attribute")) {
      std::string_view Method = S.text(field(Fn, "attribute"));
      bool Begin = listed(Spec.PyBegin, Method), End = listed(Spec.PyEnd, Method);
      if (Begin || End) {
        std::string Graph = canonicalSpelling(T, std::string(S.text(field(Fn, "object"))));
        Events.push_back({{Begin ? CaptureEffect::Begins : CaptureEffect::Ends, Graph,
                           canonicalSpelling(T, streamAt(T, N)), false, S.loc(N)},
                          beginOf(N)});
        return true;
      }
    }
    if (Depth >= MaxDepth)
      return true;
    for (CaptureEffect &E : captureEffects(T, Spec, N))
      Events.push_back({std::move(E), beginOf(N)});
    return true;
  });
  // Pair each end with the latest open begin of its graph.
  EffectList Out;
  std::vector<Event> Open;
  for (Event &Ev : Events) {
    if (Ev.E.K == CaptureEffect::Begins) {
      Open.push_back(Ev);
      continue;
    }
    if (Ev.E.K == CaptureEffect::Ends) {
      auto It = std::find_if(Open.rbegin(), Open.rend(),
                             [&](const Event &O) { return O.E.Graph == Ev.E.Graph; });
      if (It != Open.rend()) {
        CaptureEffect Whole = It->E;
        Whole.K = CaptureEffect::Captures;
        Whole.Stream.clear();
        Open.erase(std::next(It).base());
        Out.push_back(std::move(Whole));
        continue;
      }
    }
    Out.push_back(Ev.E);
  }
  for (Event &O : Open)
    Out.push_back(O.E);
  // The renewal of a graph before its capture, by F itself.
  for (auto &E : Out)
    if (E.K != CaptureEffect::Ends && !E.Renews && !E.Graph.empty()) {
      auto Ev = std::find_if(Events.begin(), Events.end(),
                             [&](const Event &X) { return X.E.Where == E.Where; });
      E.Renews = Ev != Events.end() && renewsBefore(T, E.Graph, Ev->At);
    }
  return Out;
}

EffectList effectsOf(const PyTypes &Caller, const CaptureSpec &Spec, const std::string &Q,
                     int Depth) {
  PyTypeCache &Cache = Caller.cache();
  EffectMemo &Memo = memoOf(Cache);
  if (auto It = Memo.ByFunction.find(Q); It != Memo.ByFunction.end())
    return It->second;
  const PyProgram &P = Caller.P;
  const PyFunctionDef *F = P.function(Q);
  const PyModuleInfo *M = P.moduleOfFunction(Q);
  if (!F || !M || F->IsModuleBody)
    return {};
  Memo.ByFunction[Q] = {}; // a recursive call captures nothing more by recursing
  PyTypes T(P, *M, *F, Cache);
  EffectList Out = effectsIn(T, Spec, Depth + 1);
  return Memo.ByFunction[Q] = std::move(Out);
}

} // namespace

bool leavesCaptureOpen(const PyTypes &Caller, const CaptureSpec &Spec, const std::string &Q) {
  // Only a body the index marks as speaking of capture is read.
  const PyFunctionDef *Indexed = Caller.P.functionIndex(Q);
  if (!Indexed || !Indexed->MentionsCapture)
    return false;
  EffectList Effects = effectsOf(Caller, Spec, Q, 0);
  return std::any_of(Effects.begin(), Effects.end(),
                     [](const CaptureEffect &E) { return E.K == CaptureEffect::Begins; });
}

std::vector<CaptureEffect> captureEffects(const PyTypes &Caller, const CaptureSpec &Spec,
                                          TSNode Call) {
  EffectList Out;
  const PyProgram &P = Caller.P;
  // Most calls name no function that speaks of capture: not resolved.
  // (A call through a stored callable is left out with them.)
  TSNode Fn = unparen(field(Call, "function"));
  if (is(Fn, "attribute"))
    Fn = field(Fn, "attribute");
  if (!is(Fn, "identifier") || !P.someCaptureFunctionNamed(Caller.M.Src->text(Fn)))
    return Out;
  Callees Cs = calleesOf(Caller, Call);
  std::string Here = canonicalSpelling(Caller, streamAt(Caller, Call));
  EffectMemo &Memo = memoOf(Caller.cache());
  int Depth = Memo.Depth;
  for (const auto &K : Cs.Keys) {
    if (K.rfind("py:", 0) != 0 || !P.isFunction(K.substr(3)))
      continue;
    const std::string Q = K.substr(3);
    // The index says which bodies may speak of capture; the others are not
    // read (a read ties the caller's cached result to the body).
    const PyFunctionDef *Indexed = P.functionIndex(Q);
    if (!Indexed || Indexed->IsLambda || Indexed->IsModuleBody || !Indexed->MentionsCapture)
      continue;
    const PyFunctionDef *F = P.function(Q);
    const PyModuleInfo *M = P.moduleOfFunction(Q);
    if (!F || !M)
      continue;
    ++Memo.Depth;
    EffectList Inner = effectsOf(Caller, Spec, Q, Depth);
    --Memo.Depth;
    if (Inner.empty())
      continue;
    PyTypes Callee(P, *M, *F, Caller.cache());
    for (CaptureEffect E : Inner) {
      E.Graph = mapToCaller(Callee, Q, Caller, Call, E.Graph);
      if (E.K != CaptureEffect::Captures) {
        std::string Stream = E.Stream;
        E.Stream = Stream.empty() ? Here : mapToCaller(Callee, Q, Caller, Call, Stream);
        if (!Stream.empty() && E.Stream.empty()) // made by the callee: no spelling here matches
          E.Stream = "local:" + Q + ":" + Stream;
      }
      Out.push_back(std::move(E));
    }
  }
  return Out;
}

std::string streamAt(const PyTypes &T, TSNode N) {
  const PySource &S = *T.M.Src;
  for (TSNode Up = parentOf(N); !ts_node_is_null(Up) && !ts_node_eq(Up, T.F.Node);
       Up = parentOf(Up)) {
    if (isScope(Up))
      break;
    if (!is(Up, "with_statement"))
      continue;
    for (TSNode V : withContexts(Up)) {
      if (!is(V, "call"))
        continue;
      std::string Q = T.resolve(field(V, "function"));
      if (Q != "torch.cuda.stream" && Q != "torch.cuda.StreamContext" &&
          Q != "torch.cuda.streams.StreamContext")
        continue;
      CallArgs A = argsOf(S, V);
      if (A.Positional.empty())
        continue;
      std::string Stream(S.text(A.Positional[0]));
      if (Stream != "None")
        return Stream;
    }
  }
  return "";
}

std::string canonicalSpelling(const PyTypes &T, const std::string &Spelling) {
  if (Spelling.empty() || Spelling.rfind(GlobalPrefix, 0) == 0)
    return Spelling;
  std::string Root = rootOf(Spelling);
  if (Root.empty() || bindsLocally(*T.M.Src, T.F, Root))
    return Spelling;
  std::string Rest = Spelling.substr(Root.size());
  if (auto It = T.M.Imports.find(Root); It != T.M.Imports.end())
    return GlobalPrefix + It->second + Rest;
  return GlobalPrefix + T.M.Module + "." + Root + Rest;
}

} // namespace graphsafe::lint::py

namespace graphsafe::lint::py {

std::string displaySpelling(const PyTypes &T, const std::string &Canonical) {
  if (Canonical.rfind(GlobalPrefix, 0) != 0)
    return Canonical;
  std::string Q = Canonical.substr(std::string_view(GlobalPrefix).size());
  if (Q.rfind(T.M.Module + ".", 0) == 0)
    return Q.substr(T.M.Module.size() + 1);
  return Q;
}

} // namespace graphsafe::lint::py
