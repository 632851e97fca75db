#include "ArgumentForwarding.h"

#include "../PyCallGraph.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

namespace graphsafe::lint::py {

SplatNames splatNames(const PySource &S, const PyFunctionDef &F) {
  SplatNames Out;
  if (F.IsModuleBody)
    return Out;
  for (TSNode Param : namedChildren(field(F.Node, "parameters"))) {
    bool List = is(Param, "list_splat_pattern"), Dict = is(Param, "dictionary_splat_pattern");
    if (!List && !Dict)
      continue;
    TSNode Name = ts_node_named_child(Param, 0);
    if (!is(Name, "identifier"))
      continue;
    (List ? Out.Varargs : Out.Kwargs) = S.text(Name);
  }
  return Out;
}

namespace {

// Wrappers of wrappers are followed this far.
constexpr unsigned MaxDepth = 3;

// A call in a function's own code that hands on its `*args` (after Leading
// positional arguments of its own) or its `**kwargs`, and the project
// functions it may run.
struct ForwardCall {
  std::vector<std::string> Callees;
  unsigned Leading = 0;
  bool Varargs = false, Kwargs = false;
};

bool splats(const PySource &S, TSNode Arg, const char *Kind, std::string_view Name) {
  if (Name.empty() || !is(Arg, std::string_view(Kind)))
    return false;
  TSNode Inner = unparen(ts_node_named_child(Arg, 0));
  return is(Inner, "identifier") && S.text(Inner) == Name;
}

using ForwardMemo = std::map<std::string, std::vector<ForwardCall>>;

ForwardMemo &memoOf(PyTypeCache &Cache) {
  if (!Cache.Forwarding)
    Cache.Forwarding = std::make_shared<ForwardMemo>();
  return *static_cast<ForwardMemo *>(Cache.Forwarding.get());
}

// The calls of Function that hand its `*args` or `**kwargs` on, each with
// what it may run, resolved in Function's own scope.
const std::vector<ForwardCall> &forwardsOf(const PyTypes &Caller, const std::string &Function) {
  PyTypeCache &Cache = Caller.cache();
  ForwardMemo &Memo = memoOf(Cache);
  if (auto It = Memo.find(Function); It != Memo.end())
    return It->second;
  std::vector<ForwardCall> &Out = Memo[Function];
  const PyProgram &P = Caller.P;
  // Its signature says whether it takes `*args` or `**kwargs`; only then is
  // its body read (and an edit of the body redoes this reader).
  const auto [Sig, SigMod] = P.signature(Function);
  if (!Sig || !SigMod || Sig->IsModuleBody || Cache.Depth > 2)
    return Out;
  if (SplatNames Own = splatNames(*SigMod->Src, *Sig); Own.Varargs.empty() && Own.Kwargs.empty())
    return Out;
  const PyModuleInfo *Mod = P.moduleOfFunction(Function);
  const PyFunctionDef *Def = P.function(Function);
  if (!Def || !Mod)
    return Out;
  const PyModuleInfo &Home = P.tree(*Mod);
  const PySource &S = *Home.Src;
  const SplatNames Own = splatNames(S, *Def);
  std::vector<std::pair<TSNode, ForwardCall>> Found;
  walk(Def->body(), [&](TSNode N) {
    if (!is(N, "call"))
      return true;
    CallArgs A = argsOf(S, N);
    ForwardCall W;
    for (TSNode Arg : A.Positional) {
      if (splats(S, Arg, "list_splat", Own.Varargs)) {
        W.Varargs = true;
        break;
      }
      if (is(Arg, "list_splat"))
        break; // another sequence first: the positions after it are unknown
      if (!is(Arg, "dictionary_splat"))
        ++W.Leading;
    }
    W.Kwargs = std::any_of(A.Positional.begin(), A.Positional.end(), [&](TSNode Arg) {
      return splats(S, Arg, "dictionary_splat", Own.Kwargs);
    });
    if (W.Varargs || W.Kwargs)
      Found.push_back({N, std::move(W)});
    return true;
  });
  if (Found.empty())
    return Out;
  auto &Scope = Cache.Methods[{Def, ""}];
  if (!Scope) {
    ++Cache.Depth;
    Scope = std::make_unique<PyTypes>(P, Home, *Def, Cache);
    --Cache.Depth;
  }
  for (auto &[Call, W] : Found) {
    Callees Cs = calleesOf(*Scope, Call);
    for (const auto &K : Cs.Keys)
      if (isProjectFunctionKey(P, K))
        W.Callees.push_back(K.substr(3));
    if (!Cs.SelfMethod.empty() && !Def->ClassQName.empty())
      for (auto &M : P.dispatch(Def->ClassQName, Cs.SelfMethod, false))
        W.Callees.push_back(std::move(M));
    if (!W.Callees.empty())
      Out.push_back(std::move(W));
  }
  return Out;
}

struct Pending {
  std::string Function;
  std::vector<TSNode> Positional;
  std::vector<std::pair<std::string_view, TSNode>> Keywords;
  unsigned Depth = 0;
};

} // namespace

unsigned positionalParameters(const PyFunctionDef &F) {
  if (F.IsModuleBody)
    return 0;
  unsigned Count = 0;
  bool First = true;
  for (TSNode Param : namedChildren(field(F.Node, "parameters"))) {
    bool Self = First && F.takesSelf();
    First = false;
    if (is(Param, "list_splat_pattern") || is(Param, "keyword_separator"))
      break;
    if (!Self && !is(Param, "positional_separator") && !is(Param, "dictionary_splat_pattern"))
      ++Count;
  }
  return Count;
}

namespace {

// Whether Name, in the code of Caller's function (nested functions
// included), is bound once (by an assignment or an unpacking) and otherwise
// only splatted with `**` or read by key: nothing adds a key to the dict it
// holds or hands it on.
bool onlySplatted(const PyTypes &Caller, std::string_view Name) {
  const PySource &S = *Caller.M.Src;
  int Bindings = 0;
  bool Other = false;
  std::vector<TSNode> Path;
  walkWithDepth(Caller.F.body(), [&](TSNode N, unsigned Depth) {
    Path.resize(Depth);
    Path.push_back(N);
    if (Other)
      return false;
    if (!is(N, "identifier") || S.text(N) != Name || Depth == 0)
      return true;
    switch (dictUse(N, Path[Depth - 1], Depth >= 2 ? Path[Depth - 2] : TSNode{})) {
    case DictUse::Binds:
    case DictUse::Unpacks:
      ++Bindings;
      break;
    case DictUse::Splats:
    case DictUse::ReadsEntry:
      break;
    case DictUse::NamesKeyword:
    case DictUse::HandsBack:
    case DictUse::Other:
      Other = true;
      break;
    }
    return true;
  });
  return !Other && Bindings == 1;
}

} // namespace

std::optional<std::vector<std::string>> returnedKeywords(const PyTypes &Caller, TSNode Splat) {
  const PySource &S = *Caller.M.Src;
  TSNode Name = unparen(ts_node_named_child(Splat, 0));
  if (!is(Splat, "dictionary_splat") || !is(Name, "identifier") ||
      !onlySplatted(Caller, S.text(Name)))
    return std::nullopt;
  auto [Made, Element] = Caller.boundElement(S.text(Name), beginOf(Splat));
  if (ts_node_is_null(Made))
    Made = unparen(Caller.onlyBoundExpr(S.text(Name), beginOf(Splat)));
  if (!is(Made, "call"))
    return std::nullopt;
  Callees Cs = calleesOf(Caller, Made);
  if (Cs.Dynamic || Cs.Keys.size() != 1 || !isProjectFunctionKey(Caller.P, Cs.Keys[0]))
    return std::nullopt;
  const std::string Function = Cs.Keys[0].substr(3);
  const PyModuleInfo *Mod = Caller.P.moduleOfFunction(Function);
  const PyFunctionDef *Def = Caller.P.function(Function);
  if (!Def || !Mod || Def->IsModuleBody)
    return std::nullopt;
  const PySource &Home = *Caller.P.tree(*Mod).Src;
  std::optional<std::vector<std::string>> Keys;
  bool Known = true;
  walk(Def->body(), [&](TSNode N) {
    if (!Known)
      return false;
    if (is(N, "yield")) {
      Known = false; // a generator: calling it returns no dict
      return false;
    }
    if (!is(N, "return_statement"))
      return true;
    TSNode V = unparen(ts_node_named_child(N, 0));
    if (Element >= 0) {
      auto Parts =
          is(V, "expression_list") || is(V, "tuple") ? namedChildren(V) : std::vector<TSNode>{};
      if (static_cast<size_t>(Element) >= Parts.size() ||
          std::any_of(Parts.begin(), Parts.end(), [](TSNode P) { return is(P, "list_splat"); })) {
        Known = false;
        return false;
      }
      V = Parts[Element];
    }
    std::vector<std::pair<std::string_view, TSNode>> Entries;
    if (ts_node_is_null(V) || !keywordEntries(Home, V, Entries)) {
      Known = false;
      return false;
    }
    std::vector<std::string> These;
    for (const auto &E : Entries)
      These.emplace_back(E.first);
    std::sort(These.begin(), These.end());
    Known = !Keys || *Keys == These;
    Keys = std::move(These);
    return false;
  });
  return Known ? Keys : std::nullopt;
}

std::vector<std::string> kwargsBaseInits(const PyTypes &Caller, const std::string &Init) {
  std::vector<std::string> Out;
  for (const ForwardCall &W : forwardsOf(Caller, Init))
    for (const std::string &G : W.Callees)
      if (W.Kwargs && G != Init && G.size() > 9 && G.compare(G.size() - 9, 9, ".__init__") == 0)
        Out.push_back(G);
  return Out;
}

std::vector<ForwardedArgument> forwardedArguments(const PyTypes &Caller, const std::string &Callee,
                                                  TSNode Call) {
  std::vector<ForwardedArgument> Out;
  const PyProgram &P = Caller.P;
  const auto [Def, Mod] = P.signature(Callee);
  if (!Def || !Mod)
    return Out;
  // What Callee's own parameters do not take: positions past them (into
  // its `*args`), keywords it does not name (into its `**kwargs`).
  Pending First{Callee, {}, {}, 0};
  CallArgs A = calleeArgs(Caller, Callee, Call);
  const unsigned Named = positionalParameters(*Def);
  for (unsigned I = 0; I < A.Positional.size(); ++I) {
    if (is(A.Positional[I], "list_splat"))
      break;
    if (I >= Named && !is(A.Positional[I], "dictionary_splat"))
      First.Positional.push_back(A.Positional[I]);
  }
  const std::vector<std::string> Names = parameterNames(*Mod->Src, *Def);
  for (const auto &[Name, Value] : A.Keywords)
    if (std::find(Names.begin(), Names.end(), Name) == Names.end())
      First.Keywords.push_back({Name, Value});
  if (First.Positional.empty() && First.Keywords.empty())
    return Out;

  std::set<std::string> Seen;
  std::vector<Pending> Todo{std::move(First)};
  while (!Todo.empty()) {
    Pending Cur = std::move(Todo.back());
    Todo.pop_back();
    if (!Seen.insert(Cur.Function).second)
      continue;
    for (const ForwardCall &W : forwardsOf(Caller, Cur.Function))
      for (const auto &G : W.Callees) {
        const auto [GDef, GMod] = P.signature(G);
        if (!GDef || !GMod)
          continue;
        const unsigned GNamed = positionalParameters(*GDef);
        const std::vector<std::string> GNames = parameterNames(*GMod->Src, *GDef);
        const bool GTakesVarargs = !splatNames(*GMod->Src, *GDef).Varargs.empty();
        Pending Next{G, {}, {}, Cur.Depth + 1};
        if (W.Varargs)
          for (unsigned J = 0; J < Cur.Positional.size(); ++J) {
            unsigned At = W.Leading + J;
            if (At < GNamed)
              Out.push_back({G, At, Cur.Positional[J]});
            else if (GTakesVarargs)
              Next.Positional.push_back(Cur.Positional[J]);
          }
        if (W.Kwargs)
          for (const auto &[Name, Value] : Cur.Keywords) {
            auto It = std::find(GNames.begin(), GNames.end(), Name);
            if (It != GNames.end())
              Out.push_back({G, static_cast<unsigned>(It - GNames.begin()), Value});
            else if (takesKwargs(*GDef))
              Next.Keywords.push_back({Name, Value});
          }
        if (Next.Depth < MaxDepth && (!Next.Positional.empty() || !Next.Keywords.empty()))
          Todo.push_back(std::move(Next));
      }
  }
  return Out;
}

} // namespace graphsafe::lint::py
