#include "PyPlatform.h"

#include "resolve/LibrarySemantics.h"

#include <algorithm>
#include <array>

namespace graphsafe::lint::py {

namespace {

// A process that captures CUDA graphs runs one of two builds of torch: a
// CUDA build (torch.version.cuda set, torch.version.hip None) or a ROCm
// build, where torch.cuda is HIP (the reverse). A test is known on a build
// when it is true (+1) or false (-1) there; code is off the platform when it
// cannot run on either. Reasoning per build is what lets a chain
// `if torch.version.hip: ... elif torch.version.cuda: ... else: ...` rule
// out its last branch, which neither test alone does.
enum Build { Cuda = 0, Rocm = 1 };
using Truth = std::array<int, 2>;
constexpr Truth Unknown = {0, 0};

Truth negate(Truth V) { return {-V[Cuda], -V[Rocm]}; }
Truth both(int V) { return {V, V}; }

Truth onCuda(const PyTypes &T, TSNode Cond, int Depth);
const std::array<std::vector<std::pair<unsigned, unsigned>>, 2> &offRanges(const PyTypes &T);

bool within(const std::vector<std::pair<unsigned, unsigned>> &Ranges, unsigned At) {
  return std::any_of(Ranges.begin(), Ranges.end(),
                     [&](const auto &R) { return R.first <= At && At < R.second; });
}

// A project function whose every return is known the same way
// (`def is_npu(): return hasattr(torch, "npu") and torch.npu.is_available()`).
Truth helperValue(const PyTypes &Caller, const std::string &Q, int Depth) {
  const PyProgram &P = Caller.P;
  PyTypeCache &Cache = Caller.cache();
  if (auto It = Cache.PlatformHelpers.find(Q); It != Cache.PlatformHelpers.end())
    return It->second;
  // Only a function that asks for a device can answer one: the index says
  // so without reading the body, which would make this module depend on it.
  const PyFunctionDef *Idx = P.functionIndex(Q);
  if (!Idx || !Idx->MentionsDevice || Idx->IsModuleBody || Depth > 2)
    return Cache.PlatformHelpers[Q] = Unknown;
  const PyFunctionDef *F = P.function(Q);
  const PyModuleInfo *M = P.moduleOfFunction(Q);
  if (!F || !M)
    return Cache.PlatformHelpers[Q] = Unknown;
  Cache.PlatformHelpers[Q] = Unknown; // a recursive helper says nothing
  PyTypes T(P, *M, *F, Cache);
  Truth Sign = Unknown;
  std::array<bool, 2> Mixed = {false, false};
  walk(F->body(), [&](TSNode N) {
    if (is(N, "function_definition") || is(N, "lambda") || is(N, "class_definition"))
      return false;
    if (!is(N, "return_statement"))
      return true;
    TSNode V = ts_node_named_child(N, 0);
    Truth S = ts_node_is_null(V) ? Unknown : onCuda(T, V, Depth + 1);
    for (int B : {Cuda, Rocm}) {
      Mixed[B] |= S[B] == 0 || (Sign[B] != 0 && S[B] != Sign[B]);
      Sign[B] = S[B];
    }
    return false;
  });
  return Cache.PlatformHelpers[Q] = {Mixed[Cuda] ? 0 : Sign[Cuda], Mixed[Rocm] ? 0 : Sign[Rocm]};
}

// The scope that binds a global read in T (this module's top level, or the
// module it is imported from) and the name there: a name, or a module's
// attribute (`runtime.debug_nan` on a project module imported whole) that no
// analysed module assigns through the module (`runtime.debug_nan = True`).
// Null for a local, a closure's variable or a name no project module binds.
const PyTypes *globalScope(const PyTypes &T, TSNode Name, std::string &Global) {
  if (is(Name, "attribute")) {
    std::string Q = T.resolve(Name);
    const size_t Dot = Q.rfind('.');
    const PyModuleInfo *Of = Dot == std::string::npos ? nullptr : T.P.moduleNamed(Q.substr(0, Dot));
    if (!Of || T.P.moduleAttrStored(Q))
      return nullptr;
    const PyTypes *Scope = T.moduleScope(Of);
    Global = Q.substr(Dot + 1);
    return Scope && Scope->bindsHere(Global) ? Scope : nullptr;
  }
  std::string_view Text = T.M.Src->text(Name);
  if (T.closureScope(Text))
    return nullptr;
  const PyTypes *Scope = T.moduleScope();
  Global = std::string(Text);
  if (Scope && !Scope->bindsHere(Text))
    if (auto Imported = T.importedGlobal(Text)) {
      Scope = Imported->first;
      Global = Imported->second;
    }
  return Scope && Scope->bindsHere(Global) ? Scope : nullptr;
}

// Whether a top-level statement binds Name on every path through it: an
// assignment to it, an if with an else or a try whose every branch does.
bool surelyBinds(const PySource &S, TSNode Stmt, std::string_view Name) {
  auto blockBinds = [&](TSNode Block) {
    for (TSNode St : namedChildren(Block))
      if (surelyBinds(S, St, Name))
        return true;
    return false;
  };
  if (is(Stmt, "expression_statement")) {
    TSNode A = ts_node_named_child(Stmt, 0);
    return is(A, "assignment") && is(field(A, "left"), "identifier") &&
           S.text(field(A, "left")) == Name;
  }
  if (is(Stmt, "if_statement")) {
    bool Else = false, All = blockBinds(field(Stmt, "consequence"));
    for (TSNode Alt : namedChildren(Stmt)) {
      if (is(Alt, "elif_clause"))
        All &= blockBinds(field(Alt, "consequence"));
      else if (is(Alt, "else_clause")) {
        Else = true;
        All &= blockBinds(field(Alt, "body"));
      }
    }
    return Else && All;
  }
  if (is(Stmt, "try_statement")) {
    bool All = blockBinds(field(Stmt, "body"));
    for (TSNode C : namedChildren(Stmt))
      if (is(C, "except_clause"))
        for (TSNode B : namedChildren(C))
          if (is(B, "block"))
            All &= blockBinds(B);
    return All;
  }
  return false;
}

// The bindings of a module's global that functions called after the import
// may read: every one but those a later top-level statement surely rebinds
// (a first `SYSTEM = None` that every branch of the chain after it rebinds).
std::vector<TSNode> reachingEnd(const PyTypes &Scope, const std::string &Global) {
  const PySource &S = *Scope.M.Src;
  TSNode Root = Scope.F.body();
  std::vector<TSNode> Out;
  for (TSNode Bound : Scope.everyBoundExpr(Global)) {
    TSNode Top = Bound;
    while (!ts_node_is_null(Top) && !ts_node_eq(parentOf(Top), Root))
      Top = parentOf(Top);
    bool Killed = false;
    if (!ts_node_is_null(Top))
      for (TSNode Next = ts_node_next_named_sibling(Top); !Killed && !ts_node_is_null(Next);
           Next = ts_node_next_named_sibling(Next))
        Killed = surelyBinds(S, Next, Global);
    if (!Killed)
      Out.push_back(Bound);
  }
  return Out;
}

// The expressions a global read in T may be bound to on each build (a
// binding inside a branch a build never takes is not one there), and the
// scope that binds them; null for a local, a closure's variable or a name
// no project module binds.
const PyTypes *bindingsByBuild(const PyTypes &T, TSNode Name,
                               std::array<std::vector<TSNode>, 2> &Out) {
  std::string Global;
  const PyTypes *Scope = globalScope(T, Name, Global);
  if (!Scope)
    return nullptr;
  const auto &Off = offRanges(*Scope);
  for (TSNode Bound : reachingEnd(*Scope, Global))
    for (int B : {Cuda, Rocm})
      if (ts_node_is_null(Bound) || !within(Off[B], beginOf(Bound)))
        Out[B].push_back(Bound);
  return Scope;
}

// What every binding of a name that may run on a build says there, where
// all agree: a local bound once before the test, else a global of this
// module or one imported from another (`try: use_npu =
// torch.npu.is_available() except: use_npu = False`; `if torch.version.hip:
// IS_HIP = True else: IS_HIP = False`).
Truth flagValue(const PyTypes &T, TSNode Name, int Depth) {
  std::string_view Text = T.M.Src->text(Name);
  if (is(Name, "identifier") && T.bindsHere(Text)) {
    TSNode Bound = T.onlyBoundExpr(Text, beginOf(Name));
    return ts_node_is_null(Bound) ? Unknown : onCuda(T, Bound, Depth + 1);
  }
  std::array<std::vector<TSNode>, 2> Bindings;
  const PyTypes *Scope = bindingsByBuild(T, Name, Bindings);
  if (!Scope)
    return Unknown;
  Truth Out = Unknown;
  for (int B : {Cuda, Rocm}) {
    int Sign = 0;
    for (TSNode Bound : Bindings[B]) {
      int S = ts_node_is_null(Bound) ? 0 : onCuda(*Scope, Bound, Depth + 1)[B];
      if (S == 0 || (Sign != 0 && S != Sign)) {
        Sign = 0;
        break;
      }
      Sign = S;
    }
    Out[B] = Sign;
  }
  return Out;
}

constexpr std::string_view NoString{"\0None", 5};

// The strings a global may hold on each build, where every binding that may
// run there is a string literal (`SYSTEM = "cuda"` in the branch of a chain
// of platform tests); nullopt for a build where one is not.
std::array<std::optional<std::vector<std::string>>, 2> stringValues(const PyTypes &T, TSNode Name) {
  std::array<std::optional<std::vector<std::string>>, 2> Out;
  std::string_view Text = T.M.Src->text(Name);
  std::array<std::vector<TSNode>, 2> Bindings;
  const PyTypes *Scope = T.bindsHere(Text) ? nullptr : bindingsByBuild(T, Name, Bindings);
  if (!Scope)
    return Out;
  for (int B : {Cuda, Rocm}) {
    std::vector<std::string> Values;
    bool Known = true;
    for (TSNode Bound : Bindings[B]) {
      // None (`SYSTEM = None` before the chain that sets it) equals no
      // string: a value no literal matches.
      std::string V = ts_node_is_null(Bound)          ? ""
                      : is(unparen(Bound), "none") ? std::string(NoString)
                                                   : stringLiteral(*Scope->M.Src, Bound);
      Known &= !V.empty();
      Values.push_back(std::move(V));
    }
    if (Known && !Values.empty())
      Out[B] = std::move(Values);
  }
  return Out;
}

// `SYSTEM == "ipex"`, `SYSTEM in ("cuda", "rocm")`, `not in`, `!=`: a global
// whose possible strings on a build all fall on one side of the test.
Truth stringTest(const PyTypes &T, TSNode Cmp) {
  auto C = stringComparison(*T.M.Src, Cmp);
  if (!C || !is(C->Subject, "identifier"))
    return Unknown;
  const int Positive = C->OneOf ? 1 : -1;
  auto Values = stringValues(T, C->Subject);
  Truth Out = Unknown;
  for (int B : {Cuda, Rocm}) {
    if (!Values[B])
      continue;
    size_t Hits = 0;
    for (const auto &V : *Values[B])
      Hits += std::count(C->Texts.begin(), C->Texts.end(), V) > 0;
    if (Hits == 0)
      Out[B] = -Positive;
    else if (Hits == Values[B]->size())
      Out[B] = Positive;
  }
  return Out;
}

// `torch.version.cuda` and `torch.version.hip`, bare or tested against None.
Truth buildTest(const PyTypes &T, TSNode E) {
  E = unparen(E);
  if (is(E, "comparison_operator")) {
    auto Operands = namedChildren(E);
    if (Operands.size() != 2 || !is(unparen(Operands[1]), "none"))
      return Unknown;
    const std::string Op = comparisonOperator(*T.M.Src, E);
    Truth V = buildTest(T, Operands[0]);
    return Op == "is not" || Op == "!=" ? V : Op == "is" || Op == "==" ? negate(V) : Unknown;
  }
  if (!is(E, "attribute"))
    return Unknown;
  std::string Q = T.resolve(E);
  if (Q == "torch.version.cuda")
    return {1, -1};
  if (Q == "torch.version.hip")
    return {-1, 1};
  return Unknown;
}

Truth onCuda(const PyTypes &T, TSNode Cond, int Depth) {
  Cond = unparen(Cond);
  if (ts_node_is_null(Cond) || Depth > 4)
    return Unknown;
  if (is(Cond, "true"))
    return both(1);
  if (is(Cond, "false"))
    return both(-1);
  if (is(Cond, "not_operator"))
    return negate(onCuda(T, field(Cond, "argument"), Depth));
  if (is(Cond, "boolean_operator")) {
    const bool Or = T.M.Src->text(field(Cond, "operator")) == "or";
    Truth L = onCuda(T, field(Cond, "left"), Depth), R = onCuda(T, field(Cond, "right"), Depth);
    // `a and b` is false when either is; true when both are.
    const int Decides = Or ? 1 : -1;
    Truth Out = Unknown;
    for (int B : {Cuda, Rocm})
      Out[B] = L[B] == Decides || R[B] == Decides       ? Decides
               : L[B] == -Decides && R[B] == -Decides ? -Decides
                                                      : 0;
    return Out;
  }
  if (Truth V = buildTest(T, Cond); V != Unknown)
    return V;
  if (is(Cond, "comparison_operator"))
    return stringTest(T, Cond);
  if (is(Cond, "identifier") || is(Cond, "attribute"))
    return flagValue(T, Cond, Depth);
  if (!is(Cond, "call"))
    return Unknown;
  std::string Q = T.resolve(field(Cond, "function"));
  if (Q.empty())
    return Unknown;
  if (otherDeviceAvailable(Q))
    return both(-1);
  if (Q == "torch.cuda.is_available")
    return both(1);
  return T.P.isFunction(Q) ? helperValue(T, Q, Depth) : Unknown;
}

// The byte ranges of T's function that cannot run on each build: the block
// of an if (or elif) whose test is false there, what follows a test that is
// true there, and the rest of the block after an if whose branches that run
// all return or raise.
const std::array<std::vector<std::pair<unsigned, unsigned>>, 2> &offRanges(const PyTypes &T) {
  auto [It, New] = T.cache().OffPlatform.try_emplace(T.F.Node.id);
  // A reference stays valid when the tests below fill other functions'
  // slots; a test that reads this function's own globals while its slot is
  // being filled sees no ranges yet, which is the cautious answer.
  auto &Slot = It->second;
  if (!New)
    return Slot;
  std::array<std::vector<std::pair<unsigned, unsigned>>, 2> Out;
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
    std::vector<Truth> Values;
    for (TSNode Part : Parts)
      Values.push_back(is(Part, "else_clause") ? Unknown
                                               : onCuda(T, field(Part, "condition"), 0));
    for (int B : {Cuda, Rocm}) {
      bool RestDead = false;
      // Whether some branch surely runs, and every branch that may run
      // leaves the function: then nothing after the if runs either (`if not
      // DEBUG: return` with `DEBUG = False`).
      bool Decided = false, LiveBranchesLeave = true;
      for (size_t I = 0; I < Parts.size(); ++I) {
        const bool Else = is(Parts[I], "else_clause");
        TSNode Block = field(Parts[I], Else ? "body" : "consequence");
        const bool Dead = RestDead || Values[I][B] < 0;
        if (!ts_node_is_null(Block) && Dead)
          Out[B].push_back({beginOf(Block), endOf(Block)});
        if (!Dead) {
          LiveBranchesLeave &= !ts_node_is_null(Block) && leavesFunction(Block);
          Decided |= Else || Values[I][B] > 0;
        }
        RestDead |= Values[I][B] > 0;
      }
      if (Decided && LiveBranchesLeave)
        if (TSNode Up = parentOf(N); is(Up, "block") && endOf(N) < endOf(Up))
          Out[B].push_back({endOf(N), endOf(Up)});
    }
    return true;
  });
  return Slot = std::move(Out);
}

} // namespace

bool offPlatform(const PyTypes &T, TSNode N) {
  const unsigned At = beginOf(N);
  const auto &Ranges = offRanges(T);
  return within(Ranges[Cuda], At) && within(Ranges[Rocm], At);
}

} // namespace graphsafe::lint::py
