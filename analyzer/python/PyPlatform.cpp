#include "PyPlatform.h"

#include "resolve/LibrarySemantics.h"

#include <algorithm>

namespace graphsafe::lint::py {

namespace {

// What a test is in a process that captures CUDA graphs: +1 true, -1 false,
// 0 not known.
int onCuda(const PyTypes &T, TSNode Cond, int Depth);

// A project function whose every return is known the same way
// (`def is_npu(): return hasattr(torch, "npu") and torch.npu.is_available()`).
int helperValue(const PyTypes &Caller, const std::string &Q, int Depth) {
  const PyProgram &P = Caller.P;
  PyTypeCache &Cache = Caller.cache();
  if (auto It = Cache.PlatformHelpers.find(Q); It != Cache.PlatformHelpers.end())
    return It->second;
  // Only a function that asks for a device can answer one: the index says
  // so without reading the body, which would make this module depend on it.
  const PyFunctionDef *Idx = P.functionIndex(Q);
  if (!Idx || !Idx->MentionsDevice || Idx->IsModuleBody || Depth > 2)
    return Cache.PlatformHelpers[Q] = 0;
  const PyFunctionDef *F = P.function(Q);
  const PyModuleInfo *M = P.moduleOfFunction(Q);
  if (!F || !M)
    return Cache.PlatformHelpers[Q] = 0;
  Cache.PlatformHelpers[Q] = 0; // a recursive helper says nothing
  PyTypes T(P, *M, *F, Cache);
  int Sign = 0;
  bool Mixed = false;
  walk(F->body(), [&](TSNode N) {
    if (is(N, "function_definition") || is(N, "lambda") || is(N, "class_definition"))
      return false;
    if (!is(N, "return_statement"))
      return true;
    TSNode V = ts_node_named_child(N, 0);
    int S = ts_node_is_null(V) ? 0 : onCuda(T, V, Depth + 1);
    Mixed |= S == 0 || (Sign != 0 && S != Sign);
    Sign = S;
    return false;
  });
  return Cache.PlatformHelpers[Q] = Mixed ? 0 : Sign;
}

// What every binding of a flag says, where all agree: a local bound once
// before the test, else a global of this module or one imported from
// another (`try: use_npu = torch.npu.is_available() except: use_npu =
// False`).
int flagValue(const PyTypes &T, TSNode Name, int Depth) {
  std::string_view Text = T.M.Src->text(Name);
  if (T.bindsHere(Text)) {
    TSNode Bound = T.onlyBoundExpr(Text, beginOf(Name));
    return ts_node_is_null(Bound) ? 0 : onCuda(T, Bound, Depth + 1);
  }
  if (T.closureScope(Text))
    return 0;
  const PyTypes *Scope = T.moduleScope();
  std::string Global(Text);
  if (Scope && !Scope->bindsHere(Text))
    if (auto Imported = T.importedGlobal(Text)) {
      Scope = Imported->first;
      Global = Imported->second;
    }
  if (!Scope || !Scope->bindsHere(Global))
    return 0;
  int Sign = 0;
  for (TSNode Bound : Scope->everyBoundExpr(Global)) {
    int S = ts_node_is_null(Bound) ? 0 : onCuda(*Scope, Bound, Depth + 1);
    if (S == 0 || (Sign != 0 && S != Sign))
      return 0;
    Sign = S;
  }
  return Sign;
}

int onCuda(const PyTypes &T, TSNode Cond, int Depth) {
  Cond = unparen(Cond);
  if (ts_node_is_null(Cond) || Depth > 4)
    return 0;
  if (is(Cond, "true"))
    return 1;
  if (is(Cond, "false"))
    return -1;
  if (is(Cond, "not_operator"))
    return -onCuda(T, field(Cond, "argument"), Depth);
  if (is(Cond, "boolean_operator")) {
    const bool Or = T.M.Src->text(field(Cond, "operator")) == "or";
    int L = onCuda(T, field(Cond, "left"), Depth), R = onCuda(T, field(Cond, "right"), Depth);
    // `a and b` is false when either is; true when both are.
    const int Decides = Or ? 1 : -1;
    if (L == Decides || R == Decides)
      return Decides;
    return L == -Decides && R == -Decides ? -Decides : 0;
  }
  if (is(Cond, "identifier"))
    return flagValue(T, Cond, Depth);
  if (!is(Cond, "call"))
    return 0;
  std::string Q = T.resolve(field(Cond, "function"));
  if (Q.empty())
    return 0;
  if (otherDeviceAvailable(Q))
    return -1;
  if (Q == "torch.cuda.is_available")
    return 1;
  return T.P.isFunction(Q) ? helperValue(T, Q, Depth) : 0;
}

// The byte ranges of T's function that no CUDA process runs: the block of
// an if (or elif) whose test is false there, what follows a test that is
// true there, and the rest of the block after an if whose branches that run
// all return or raise.
const std::vector<std::pair<unsigned, unsigned>> &offRanges(const PyTypes &T) {
  auto [It, New] = T.cache().OffPlatform.try_emplace(T.F.Node.id);
  // A reference stays valid when the tests below fill other functions' slots.
  auto &Slot = It->second;
  if (!New)
    return Slot;
  std::vector<std::pair<unsigned, unsigned>> Out;
  walk(T.F.body(), [&](TSNode N) {
    if (is(N, "function_definition") || is(N, "class_definition") || is(N, "lambda"))
      return ts_node_eq(N, T.F.Node);
    if (!is(N, "if_statement"))
      return true;
    // if / elif / else: a false test drops its own block; a true one drops
    // every branch after it.
    std::vector<TSNode> Parts = {N};
    for (TSNode Alt : namedChildren(N))
      if (is(Alt, "elif_clause") || is(Alt, "else_clause"))
        Parts.push_back(Alt);
    bool RestDead = false;
    // Whether some branch surely runs, and every branch that may run leaves
    // the function: then nothing after the if runs either (`if not DEBUG:
    // return` with `DEBUG = False`).
    bool Decided = false, LiveBranchesLeave = true;
    for (TSNode Part : Parts) {
      const bool Else = is(Part, "else_clause");
      TSNode Block = field(Part, Else ? "body" : "consequence");
      const int Value = Else ? 0 : onCuda(T, field(Part, "condition"), 0);
      const bool Dead = RestDead || Value < 0;
      if (!ts_node_is_null(Block) && Dead)
        Out.push_back({beginOf(Block), endOf(Block)});
      if (!Dead) {
        LiveBranchesLeave &= !ts_node_is_null(Block) && leavesFunction(Block);
        Decided |= Else || Value > 0;
      }
      RestDead |= Value > 0;
    }
    if (Decided && LiveBranchesLeave)
      if (TSNode Up = ts_node_parent(N); is(Up, "block") && endOf(N) < endOf(Up))
        Out.push_back({endOf(N), endOf(Up)});
    return true;
  });
  return Slot = std::move(Out);
}

} // namespace

bool offPlatform(const PyTypes &T, TSNode N) {
  const unsigned At = beginOf(N);
  const auto &Ranges = offRanges(T);
  return std::any_of(Ranges.begin(), Ranges.end(),
                     [&](const auto &R) { return R.first <= At && At < R.second; });
}

} // namespace graphsafe::lint::py
