// Branches a literal argument decides: `def backward(..., only_inputs=True)`
// with `if not only_inputs: <sync>` never syncs for a caller passing True.
// Sites and calls record the tests of their function's parameters they run
// under; calls record the literals they pass; the reachability walk keeps
// what runs for the literals each caller passed.
#include "PyCallGraph.h"
#include "PyContext.h"
#include "PyModeFlags.h"
#include "PyObjectFacts.h"
#include "resolve/ArgumentForwarding.h"
#include "resolve/LibrarySemantics.h"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace graphsafe::lint::py {

namespace {

// Whether Text may assign the attribute Attr: `.Attr =`, `.Attr: T =`, or a
// chained `.Attr = v = w`, not `.Attr ==`.
bool assignsAttribute(std::string_view Text, std::string_view Attr) {
  for (size_t At = Text.find(Attr); At != std::string_view::npos; At = Text.find(Attr, At + 1)) {
    if (At == 0 || Text[At - 1] != '.')
      continue;
    size_t Next = Text.find_first_not_of(" \t", At + Attr.size());
    if (Next == std::string_view::npos)
      return false;
    if ((Text[Next] == '=' && (Next + 1 >= Text.size() || Text[Next + 1] != '=')) ||
        Text[Next] == ':')
      return true;
  }
  return false;
}

// Whether Cond, holding as Holds says, is the miss of a lazy initialisation:
// `if self.x is None:` (or of a name declared `nonlocal` or `global`), `if not hasattr(self, "x"):`
// or `if key != self.x:` whose block assigns `self.x`; `if not self.ready:` whose block sets
// `self.ready` to a value that is not false; or the miss of a cache kept in a dict of
// self's or of the module's (`v = cache.get(k)` then `if v is None:`, or `if
// k not in cache:`, filled in the block by `cache[k] = v`). The same tests
// the other way round (`if v is not None: return v`, `if k in cache: return
// cache[k]`) miss where they fail, and the fill is in the code after them.
// The test may be one of several the block needs (`if not self.ready and
// enabled:`). The first call takes the miss, later calls with the same
// inputs do not.
bool lazyInitialisation(const PyTypes &T, TSNode Cond, bool Holds) {
  const PySource &S = *T.M.Src;
  // Self, or a local bound to something self keeps (`slot =
  // self._slots[ticket]`): `if slot.buf is None: slot.buf = ...` fills it once.
  auto keptBySelf = [&](TSNode E) {
    E = unparen(E);
    if (is(E, "identifier") && !T.isSelf(E))
      for (E = unparen(T.onlyBoundExpr(S.text(E), beginOf(E)));
           is(E, "attribute") || is(E, "subscript");)
        E = unparen(field(E, is(E, "attribute") ? "object" : "value"));
    return !ts_node_is_null(E) && T.isSelf(E);
  };
  auto selfAttribute = [&](TSNode E) {
    E = unparen(E);
    return is(E, "attribute") && keptBySelf(field(E, "object")) ? S.text(field(E, "attribute"))
                                                                : std::string_view();
  };
  // A dict the module binds (a name this function neither binds nor
  // receives): `_CACHE.get(key)`.
  auto moduleDict = [&](TSNode E) {
    E = unparen(E);
    return is(E, "identifier") && !T.bindsHere(S.text(E)) ? S.text(E) : std::string_view();
  };
  // A name the function declares `nonlocal` or `global`: a memoizing
  // decorator's `nonlocal value; if value is None: value = func()`.
  auto keptName = [&](TSNode E) {
    E = unparen(E);
    bool Kept = false;
    if (is(E, "identifier") && !T.F.IsModuleBody)
      walk(T.F.body(), [&](TSNode N) {
        if (is(N, "nonlocal_statement") || is(N, "global_statement"))
          for (TSNode Name : namedChildren(N))
            Kept |= S.text(Name) == S.text(E);
        return !Kept;
      });
    return Kept ? S.text(E) : std::string_view();
  };
  // A dict of self's, also through a local bound to it alone (`cache =
  // self._cache; if k not in cache: ... cache[k] = v`).
  auto selfDict = [&](TSNode E) {
    std::string_view Attr = selfAttribute(E);
    if (E = unparen(E); Attr.empty() && is(E, "identifier"))
      Attr = selfAttribute(T.onlyBoundExpr(S.text(E), beginOf(E)));
    return Attr;
  };
  std::string Attr;
  std::string_view Cache, Global, Kept;
  auto cacheOf = [&](TSNode Dict) {
    Cache = selfDict(Dict);
    Global = Cache.empty() ? moduleDict(Dict) : std::string_view();
  };
  auto cacheLookup = [&](TSNode E) {
    E = unparen(E);
    if (is(E, "identifier"))
      if (TSNode Bound = unparen(T.boundExpr(S.text(E), beginOf(E))); is(Bound, "call"))
        if (TSNode Fn = unparen(field(Bound, "function"));
            is(Fn, "attribute") && S.text(field(Fn, "attribute")) == "get")
          cacheOf(field(Fn, "object"));
  };
  TSNode Test = unparen(Cond);
  // Whether the test holds on the miss.
  bool MissWhenHolds = true;
  // A flag's truth is tested: the fill must set a true value.
  bool Truth = false;
  if (std::string Op = comparisonOperator(S, Test); !Op.empty()) {
    TSNode L = ts_node_child(Test, 0), R = ts_node_child(Test, ts_node_child_count(Test) - 1);
    if ((Op == "is" || Op == "is not") && is(R, "none")) {
      MissWhenHolds = Op == "is";
      Attr = selfAttribute(L);
      Kept = keptName(L);
      cacheLookup(L);
    } else if (Op == "not in" || Op == "in") {
      MissWhenHolds = Op == "not in";
      cacheOf(R);
    }
    // `if key != self._key: ...; self._key = key`: rebuilt when the key
    // changes, which the same inputs' warm-up settled.
    else if (Op == "!=")
      Attr = selfAttribute(L).empty() ? selfAttribute(R) : selfAttribute(L);
  } else if (is(Test, "not_operator")) {
    TSNode Call = unparen(field(Test, "argument"));
    CallArgs A = is(Call, "call") && S.text(field(Call, "function")) == "hasattr" ? argsOf(S, Call)
                                                                                  : CallArgs{};
    if (A.Positional.size() == 2 && T.isSelf(unparen(A.Positional[0])))
      Attr = stringLiteral(S, A.Positional[1]);
    else if (Attr = selfAttribute(Call); !Attr.empty())
      Truth = true;
  } else if (Attr = selfAttribute(Test); !Attr.empty()) {
    // `if self.ready: return ...`, the fill after it.
    MissWhenHolds = false;
    Truth = true;
  }
  if ((Attr.empty() && Cache.empty() && Global.empty() && Kept.empty()) || Holds != MissWhenHolds)
    return false;
  // Most attribute tests are of settings no code of the function assigns:
  // a look at its text spares them the search for the if, which
  // ts_node_parent makes from the tree's root.
  if (!Attr.empty() && Cache.empty() && Global.empty() && Kept.empty() &&
      !assignsAttribute(S.text(T.F.IsModuleBody ? T.F.Node : T.F.body()), Attr))
    return false;
  // Only now the if itself: ts_node_parent searches from the tree's root.
  // A test that holds wherever `a and b` does (fails wherever `a or b`
  // does) decides the branch as the whole condition does.
  TSNode Whole = Cond, If = parentOf(Cond);
  while (is(If, "parenthesized_expression") ||
         (is(If, "boolean_operator") && kind(ts_node_child(If, 1)) == (Holds ? "and" : "or"))) {
    Whole = If;
    If = parentOf(If);
  }
  if ((!is(If, "if_statement") && !is(If, "elif_clause")) ||
      !ts_node_eq(field(If, "condition"), Whole))
    return false;
  bool Assigns = false;
  auto scan = [&](TSNode Code) {
    walk(Code, [&](TSNode N) {
      // `a = self.x = v` nests the second assignment: the walk meets it too.
      if (is(N, "assignment")) {
        TSNode Left = unparen(field(N, "left"));
        TSNode Dict = is(Left, "subscript") ? field(Left, "value") : TSNode{};
        // `self.x: int` declares, assigning nothing.
        TSNode Right = unparen(field(N, "right"));
        if (ts_node_is_null(Right))
          return true;
        auto Lit = literalArgument(S, Right, 0);
        Assigns =
            Assigns ||
            (!Attr.empty() && selfAttribute(Left) == Attr && !(Truth && Lit && !Lit->Truthy)) ||
            (!Cache.empty() && !ts_node_is_null(Dict) && selfDict(Dict) == Cache) ||
            (!Global.empty() && !ts_node_is_null(Dict) && moduleDict(Dict) == Global) ||
            (!Kept.empty() && is(Left, "identifier") && S.text(Left) == Kept);
      }
      return !Assigns;
    });
  };
  // A flag set only on some paths of the miss (`if self._stopped: return`
  // ... `if failed: self._stopped = True`) is a state, not a record that the
  // miss ran: the set must be a statement of its own there.
  auto fills = [&](TSNode Code) {
    if (!Truth)
      return scan(Code);
    if (is(Code, "expression_statement"))
      return scan(Code);
    for (TSNode St : namedChildren(Code))
      if (is(St, "expression_statement"))
        scan(St);
  };
  if (Holds) {
    fills(field(If, "consequence"));
    return Assigns;
  }
  // The miss runs in the else, or after an if whose hit leaves.
  for (TSNode Alt : namedChildren(If))
    if (is(Alt, "else_clause"))
      fills(field(Alt, "body"));
  if (is(If, "if_statement"))
    for (TSNode Next = ts_node_next_named_sibling(If); !Assigns && !ts_node_is_null(Next);
         Next = ts_node_next_named_sibling(Next))
      fills(Next);
  return Assigns;
}

bool definesClosures(const PyTypes &T) {
  auto [It, New] = T.cache().DefinesClosures.try_emplace(&T.M);
  if (New) {
    std::unordered_map<const void *, const std::string *> ByNode;
    for (const auto &F : T.M.Functions)
      if (!F.IsModuleBody)
        ByNode[F.Node.id] = &F.QualName;
    for (const auto &F : T.M.Functions)
      if (TSNode Outer = F.IsModuleBody ? TSNode{} : enclosingFunction(F.Node);
          !ts_node_is_null(Outer))
        if (auto Defining = ByNode.find(Outer.id); Defining != ByNode.end())
          It->second.insert(*Defining->second);
  }
  return It->second.count(T.F.QualName) > 0;
}

// `flag` in a closure, where flag is a parameter of the function that
// defines it, never rebound there: a test of the fact closureFactKey names.
std::string closureParameter(const PyTypes &T, TSNode Id) {
  if (!is(Id, "identifier"))
    return "";
  std::string_view Name = T.M.Src->text(Id);
  // Read the defining function's parameter list before building its types
  // (closureScope): most free names in closures are globals or locals.
  bool Named = false;
  if (TSNode Outer = enclosingFunction(T.F.Node); !ts_node_is_null(Outer))
    for (TSNode Param : namedChildren(field(Outer, "parameters")))
      if (TSNode P = parameterName(Param); !ts_node_is_null(P))
        Named |= T.M.Src->text(P) == Name;
  if (!Named)
    return "";
  const PyTypes *E = T.closureScope(Name);
  if (!E || E->F.IsModuleBody)
    return "";
  int I = E->parameterAt(Name, std::numeric_limits<unsigned>::max());
  return I < 0 ? "" : closureFactKey(E->F.QualName, static_cast<unsigned>(I));
}

// `flag`, `not flag`, `x is None`, `x is not None` where the name is the
// function's parameter there (or `x.attr` of one, as the caller passed it), and `MODE`, `mode =
// is_mode_enabled()`, `is_mode_enabled()` for a module global (PyModeFlags.h); Holds says which way
// the test went. `a and b` that held, or `a or b` that failed, tests each.
void testsOf(const PyTypes &T, TSNode Cond, bool Holds, std::vector<ParamTest> &Out, int Depth = 0);

// A local flag bound more than once (`call_sync = False`, then `call_sync =
// non_blocking is None` under `if has_device:`): it is truthy only where one
// of its bindings that may give a truthy value ran, so the tests every such
// binding runs under (and its own value's, when it is a test) hold wherever
// the flag does. Nothing when some binding is of another form (a loop
// target, `with ... as`, an augmented assignment) or a nested function
// rebinds the name.
std::optional<std::vector<ParamTest>> truthyBindingTests(const PyTypes &T, TSNode Name, int Depth) {
  const PySource &S = *T.M.Src;
  std::string_view Text = S.text(Name);
  std::vector<TSNode> Bound = T.everyBoundExpr(Text);
  if (Bound.size() < 2 || T.closureScope(Text) || declaresName(S, T.F.body(), Text, true))
    return std::nullopt;
  auto same = [](const ParamTest &A, const ParamTest &B) {
    return A.Index == B.Index && A.K == B.K && A.Global == B.Global && A.Attr == B.Attr &&
           A.Text == B.Text;
  };
  std::optional<std::vector<ParamTest>> Common;
  for (TSNode B : Bound) {
    if (ts_node_is_null(B))
      return std::nullopt;
    if (auto L = literalArgument(S, B, 0); L && !L->Truthy)
      continue; // False, None, 0, "": never truthy
    std::vector<ParamTest> Here;
    enclosingTests(B, T.F.body(), [&](TSNode C, bool H) {
      testsOf(T, C, H, Here, Depth + 1);
      return false;
    });
    testsOf(T, B, true, Here, Depth + 1);
    if (!Common) {
      Common = std::move(Here);
      continue;
    }
    Common->erase(std::remove_if(Common->begin(), Common->end(),
                                 [&](const ParamTest &A) {
                                   return std::none_of(
                                       Here.begin(), Here.end(),
                                       [&](const ParamTest &X) { return same(A, X); });
                                 }),
                  Common->end());
  }
  return Common;
}

// `kwargs.get("k", D)`, or a local bound to it alone, in a test.
std::optional<KwargsRead> kwargsSubject(const PyTypes &T, TSNode E) {
  E = unparen(E);
  if (is(E, "identifier") && T.parameterAt(T.M.Src->text(E), beginOf(E)) < 0)
    if (TSNode Bound = T.onlyBoundExpr(T.M.Src->text(E), beginOf(E)); !ts_node_is_null(Bound))
      E = Bound;
  return kwargsRead(T, E);
}

// Where `kwargs.get("k", D)` meets Holds, a test of its value: Holds of
// the value passed for k; and where D cannot meet it, k was passed.
void kwargsTests(const KwargsRead &R, ParamTest Holds, std::vector<ParamTest> &Out) {
  Holds.Index = KwargsParam;
  Holds.Attr = R.Key;
  const bool DefaultHolds = Holds.holdsFor(R.Default);
  Out.push_back(std::move(Holds));
  if (!DefaultHolds)
    Out.push_back({KwargsParam, ParamTest::Kind::Truthy, "", std::string(KwargsHas) + R.Key});
}

// `backend == "cudagraph"` (either side), `!=`, and `mode not in ("a",
// "b")` on a parameter or its attribute: what the string must (not) be
// where the test holds as Holds says. `x in (...)` holding is a choice of
// strings, which a test of one cannot say: nothing.
void stringTests(const PyTypes &T, TSNode Cmp, bool Holds, std::vector<ParamTest> &Out) {
  const PySource &S = *T.M.Src;
  auto C = stringComparison(S, Cmp);
  if (!C)
    return;
  // Whether the string is one of Texts where the test holds as Holds says.
  const bool IsOne = C->OneOf == Holds;
  if (IsOne && C->Texts.size() != 1)
    return;
  // `if saved_addr != "":` on a local every binding of which is a string:
  // a truth test of it (`saved_addr = ""`, then `saved_addr = f"./{id}/"`
  // under `if file_id != -1:`).
  if (!IsOne && C->Texts == std::vector<std::string>{""} && is(C->Subject, "identifier") &&
      T.parameterAt(S.text(C->Subject), beginOf(C->Subject)) < 0) {
    std::vector<TSNode> Bound = T.everyBoundExpr(S.text(C->Subject));
    if (!Bound.empty() && std::all_of(Bound.begin(), Bound.end(), [](TSNode B) {
          return !ts_node_is_null(B) && is(unparen(B), "string");
        })) {
      if (auto Needed = truthyBindingTests(T, C->Subject, 1))
        Out.insert(Out.end(), Needed->begin(), Needed->end());
      return;
    }
  }
  if (auto R = kwargsSubject(T, C->Subject)) {
    for (const auto &Text : C->Texts) {
      ParamTest PT{0, IsOne ? ParamTest::Kind::Equals : ParamTest::Kind::NotEquals};
      PT.Text = Text;
      kwargsTests(*R, PT, Out);
    }
    return;
  }
  std::optional<std::pair<unsigned, std::string>> Subject;
  if (auto PA = parameterAttribute(T, C->Subject))
    Subject = PA;
  else if (is(C->Subject, "identifier"))
    if (int Index = T.parameterAt(S.text(C->Subject), beginOf(C->Subject)); Index >= 0)
      Subject = std::make_pair(static_cast<unsigned>(Index), std::string());
  if (!Subject)
    return;
  for (const auto &Text : C->Texts) {
    ParamTest PT{Subject->first, IsOne ? ParamTest::Kind::Equals : ParamTest::Kind::NotEquals, "",
                 Subject->second};
    PT.Text = Text;
    Out.push_back(std::move(PT));
  }
}

// `dropout_p > 0.0`, `0 < top_k`, `layer_idx == 0` on a parameter: the
// comparison with the number that holds where the test
// holds as Holds says. False when Cmp is no such comparison.
bool numberTests(const PyTypes &T, TSNode Cmp, bool Holds, std::vector<ParamTest> &Out) {
  const PySource &S = *T.M.Src;
  using K = ParamTest::Kind;
  TSNode Lhs = ts_node_child(Cmp, 0), Rhs = ts_node_child(Cmp, 2);
  std::string Op = comparisonOperator(S, Cmp);
  auto Number = numberLiteral(S, Rhs);
  if (!Number) {
    // `0 < top_k`: the same test written the other way round.
    Number = numberLiteral(S, Lhs);
    std::swap(Lhs, Rhs);
    Op = Op == "<" ? ">" : Op == ">" ? "<" : Op == "<=" ? ">=" : Op == ">=" ? "<=" : Op;
  }
  if (!Number)
    return false;
  static const std::map<std::string, std::pair<K, K>, std::less<>> Kinds = {
      {"<", {K::Less, K::GreaterEqual}},       {"<=", {K::LessEqual, K::Greater}},
      {">", {K::Greater, K::LessEqual}},       {">=", {K::GreaterEqual, K::Less}},
      {"==", {K::Equals, K::NotEquals}},       {"!=", {K::NotEquals, K::Equals}}};
  auto It = Kinds.find(Op);
  if (It == Kinds.end())
    return false;
  // A parameter only: an object's numbers are counters as often as settings
  // (`if self.warmup_steps > 0: self.warmup_steps -= 1`), and what it was
  // built with says nothing of them later.
  // A dict handed in is a setting too (`args["atom_filter"] > -1`).
  int Index = is(Lhs, "identifier") ? T.parameterAt(S.text(Lhs), beginOf(Lhs)) : -1;
  std::string Key;
  if (TSNode Of = unparen(field(unparen(Lhs), "value"));
      Index < 0 && is(unparen(Lhs), "subscript") && is(Of, "identifier") && !T.isSelf(Of))
    if (auto PA = parameterAttribute(T, Lhs)) {
      Index = static_cast<int>(PA->first);
      Key = PA->second;
    }
  ParamTest PT{Index < 0 ? 0 : static_cast<unsigned>(Index),
               Holds ? It->second.first : It->second.second, "", Key};
  PT.Text = numberText(*Number);
  if (Index >= 0)
    Out.push_back(std::move(PT));
  else if (auto R = kwargsSubject(T, Lhs))
    kwargsTests(*R, std::move(PT), Out);
  return true;
}

// `p.attr` or `self.attr` tested where p is a parameter: the object facts
// of p alone are worked out, never a local's (whose facts may take the whole
// step budget of the question the test is asked for).
std::optional<std::pair<unsigned, std::string>> parameterAttributeTested(const PyTypes &T,
                                                                         TSNode Subject) {
  if (!is(Subject, "attribute"))
    return std::nullopt;
  TSNode Of = unparen(field(Subject, "object"));
  if (!is(Of, "identifier") || (T.parameterAt(T.M.Src->text(Of), beginOf(Of)) < 0 && !T.isSelf(Of)))
    return std::nullopt;
  return parameterAttribute(T, Subject);
}

// The qualified names of the classes `isinstance`'s second argument names
// (one, or a tuple of them), comma-separated; "" where one is not a name.
std::string testedClasses(const PyTypes &T, TSNode E) {
  E = unparen(E);
  std::vector<TSNode> Named = is(E, "tuple") ? namedChildren(E) : std::vector<TSNode>{E};
  std::string Out;
  for (TSNode N : Named) {
    N = unparen(N);
    std::string Q = is(N, "identifier") || is(N, "attribute") ? T.resolve(N) : "";
    if (Q.empty() || Q.find(',') != std::string::npos)
      return "";
    Out += (Out.empty() ? "" : ",") + Q;
  }
  return Out;
}

// `callable(p)` and `isinstance(p, C)` on a parameter or a parameter's
// attribute, for resolve/ClassTests.h to decide against the classes the
// caller's value may be.
std::optional<ParamTest> classTest(const PyTypes &T, TSNode Call, bool Holds) {
  const PySource &S = *T.M.Src;
  const std::string Fn = T.resolve(field(Call, "function"));
  const bool Instance = Fn == "isinstance";
  if (!Instance && Fn != "callable")
    return std::nullopt;
  CallArgs A = argsOf(S, Call);
  if (!A.Keywords.empty() || A.Positional.size() != (Instance ? 2u : 1u))
    return std::nullopt;
  using K = ParamTest::Kind;
  ParamTest PT;
  PT.K = Instance ? (Holds ? K::IsInstance : K::NotInstance)
                  : (Holds ? K::IsCallable : K::NotCallable);
  if (Instance && (PT.Text = testedClasses(T, A.Positional[1])).empty())
    return std::nullopt;
  TSNode Subject = unparen(A.Positional[0]);
  if (int Index = is(Subject, "identifier") ? T.parameterAt(S.text(Subject), beginOf(Subject)) : -1;
      Index >= 0)
    PT.Index = static_cast<unsigned>(Index);
  else if (auto PA = parameterAttributeTested(T, Subject))
    std::tie(PT.Index, PT.Attr) = *PA;
  else
    return std::nullopt;
  return PT;
}

void testsOf(const PyTypes &T, TSNode Cond, bool Holds, std::vector<ParamTest> &Out, int Depth) {
  if (lazyInitialisation(T, Cond, Holds))
    Out.push_back({0, ParamTest::Kind::Falsy, WarmedUp});
  Cond = unparen(Cond);
  const PySource &S = *T.M.Src;
  using K = ParamTest::Kind;
  if (is(Cond, "not_operator"))
    return testsOf(T, field(Cond, "argument"), !Holds, Out, Depth);
  if (is(Cond, "boolean_operator")) {
    bool And = kind(ts_node_child(Cond, 1)) == "and";
    if (And == Holds) {
      testsOf(T, field(Cond, "left"), Holds, Out, Depth);
      testsOf(T, field(Cond, "right"), Holds, Out, Depth);
    }
    return;
  }
  if (is(Cond, "identifier")) {
    if (int Index = T.parameterAt(S.text(Cond), beginOf(Cond)); Index >= 0)
      Out.push_back({static_cast<unsigned>(Index), Holds ? K::Truthy : K::Falsy});
    else if (std::string G = globalTested(T, Cond); !G.empty())
      Out.push_back({0, Holds ? K::Truthy : K::Falsy, std::move(G)});
    else if (std::string C = closureParameter(T, Cond); !C.empty())
      Out.push_back({0, Holds ? K::Truthy : K::Falsy, std::move(C)});
    // `has_q = q is not None` then `if has_q:`, when no other binding of
    // the name reaches the test.
    else if (TSNode Bound = T.onlyBoundExpr(S.text(Cond), beginOf(Cond));
             Depth < 3 && !ts_node_is_null(Bound))
      testsOf(T, Bound, Holds, Out, Depth + 1);
    else if (Holds && Depth < 3)
      if (auto Needed = truthyBindingTests(T, Cond, Depth))
        Out.insert(Out.end(), Needed->begin(), Needed->end());
    return;
  }
  if (is(Cond, "subscript")) {
    if (auto PA = parameterAttribute(T, Cond)) // `if args["derivative"]:`
      Out.push_back({PA->first, Holds ? K::Truthy : K::Falsy, "", PA->second});
    return;
  }
  if (is(Cond, "attribute")) {
    if (auto PA = parameterAttribute(T, Cond))
      Out.push_back({PA->first, Holds ? K::Truthy : K::Falsy, "", PA->second});
    else if (std::string G = globalTested(T, Cond); !G.empty())
      Out.push_back({0, Holds ? K::Truthy : K::Falsy, std::move(G)});
    return;
  }
  if (is(Cond, "call")) {
    if (auto C = classTest(T, Cond, Holds)) {
      Out.push_back(std::move(*C));
      return;
    }
    if (auto R = kwargsRead(T, Cond))
      kwargsTests(*R, {0, Holds ? K::Truthy : K::Falsy}, Out);
    else if (std::string G = globalTested(T, Cond); !G.empty())
      Out.push_back({0, Holds ? K::Truthy : K::Falsy, std::move(G)});
    return;
  }
  if (is(Cond, "comparison_operator") && ts_node_child_count(Cond) == 3) {
    TSNode Name = ts_node_child(Cond, 0), Op = ts_node_child(Cond, 1), Rhs = ts_node_child(Cond, 2);
    std::string_view Spelled = kind(Op);
    if (numberTests(T, Cond, Holds, Out))
      return;
    if (Spelled == "==" || Spelled == "!=" || Spelled == "in" || Spelled == "not in")
      return stringTests(T, Cond, Holds, Out);
    if (!is(Rhs, "none") || (Spelled != "is" && Spelled != "is not"))
      return;
    bool None = (Spelled == "is") == Holds;
    if (auto R = kwargsSubject(T, Name)) {
      kwargsTests(*R, {0, None ? K::IsNone : K::NotNone}, Out);
      return;
    }
    if (auto PA = parameterAttribute(T, Name)) {
      Out.push_back({PA->first, None ? K::IsNone : K::NotNone, "", PA->second});
      return;
    }
    int Index = is(Name, "identifier") ? T.noneOfParameterAt(S.text(Name), beginOf(Name)) : -1;
    if (std::string C = Index < 0 ? closureParameter(T, Name) : ""; !C.empty())
      Out.push_back({0, None ? K::IsNone : K::NotNone, std::move(C)});
    if (Index < 0)
      return;
    Out.push_back({static_cast<unsigned>(Index), None ? K::IsNone : K::NotNone});
  }
}

} // namespace

std::optional<double> numberLiteral(const PySource &S, TSNode E) {
  E = unparen(E);
  double Sign = 1;
  if (is(E, "unary_operator") && S.text(ts_node_child(E, 0)) == "-") {
    Sign = -1;
    E = unparen(field(E, "argument"));
  }
  if (!is(E, "integer") && !is(E, "float"))
    return std::nullopt;
  std::string Digits;
  for (char Ch : S.text(E))
    if (Ch != '_')
      Digits += Ch;
  if (Digits.find_first_of("jJ") != std::string::npos)
    return std::nullopt; // complex
  return Sign * std::strtod(Digits.c_str(), nullptr);
}

std::optional<ConstArg> literalArgument(const PySource &S, TSNode E, unsigned Index) {
  E = unparen(E);
  std::string_view Text = S.text(E);
  ConstArg C{Index};
  if (is(E, "true"))
    C.Truthy = true;
  else if (is(E, "none"))
    C.IsNone = true;
  else if (auto N = numberLiteral(S, E)) {
    C.Truthy = *N != 0.0;
    C.TextKnown = true;
    C.Text = numberText(*N);
  }
  else if (auto Str = plainString(S, E)) {
    C.Truthy = !Str->empty();
    C.TextKnown = true;
    C.Text = std::move(*Str);
  } else if (!is(E, "false"))
    return std::nullopt;
  return C;
}

namespace {

// Each parameter's default, as callers count parameters.
std::vector<TSNode> parameterDefaults(const PyFunctionDef &F) {
  std::vector<TSNode> Out;
  for (TSNode Param : callerParameters(F)) {
    bool HasDefault = is(Param, "default_parameter") || is(Param, "typed_default_parameter");
    Out.push_back(HasDefault ? field(Param, "value") : TSNode{});
  }
  return Out;
}

// A memoized function's body runs on a cache miss only: once per argument
// set, which the warm-up before a capture took.
bool memoized(const PyTypes &T) { return decoratedBy(T.P, T.M, T.F, memoizes); }

} // namespace

std::vector<ParamTest> parameterTestsAt(const PyTypes &T, TSNode N) {
  std::vector<ParamTest> Out;
  if (T.F.IsLambda || T.F.IsModuleBody)
    return Out;
  enclosingTests(N, T.F.body(), [&](TSNode Cond, bool Holds) {
    testsOf(T, Cond, Holds, Out);
    return false;
  });
  return Out;
}

std::vector<ParamTest> PyFunctionContext::testsAt(TSNode N) const {
  std::vector<ParamTest> Out;
  if (T.F.IsLambda)
    return Out;
  if (memoized(T))
    Out.push_back({0, ParamTest::Kind::Falsy, WarmedUp});
  // A mode flag tested before a `with` around N sets it (`if in_graph():
  // return fn()` and then `with set_in_graph():`) says nothing of its value
  // at N: the `with` decides it there.
  const auto SetLater = enclosingWithFacts(T, N);
  enclosingTests(N, body(), [&](TSNode Cond, bool Holds) {
    size_t From = Out.size();
    testsOf(T, Cond, Holds, Out);
    // Class tests are for the object facts (resolve/ClassTests.h): the walk
    // carries no classes of plain parameters to decide them by.
    Out.erase(
        std::remove_if(Out.begin() + From, Out.end(),
                       [&](const ParamTest &P) {
                         return P.ofClass() ||
                                (!P.Global.empty() &&
                                 std::any_of(SetLater.begin(), SetLater.end(), [&](const auto &W) {
                                   return W.first > beginOf(Cond) && W.second.Global == P.Global;
                                 }));
                       }),
        Out.end());
    return false;
  });
  return Out;
}

std::string closureFactKey(const std::string &Function, unsigned Index) {
  return fmt::format("{}{}#{}", ClosureFact, Function, Index);
}

std::string closureFrameKey(const std::string &Function) {
  return fmt::format("{}{}", FrameFact, Function);
}

std::vector<ConstArg> PyFunctionContext::closureFrameFacts(CaptureContext Context) const {
  if (Context != CaptureContext::Ambient || T.F.IsModuleBody)
    return {};
  // Only functions whose closures keep `nonlocal` state: the fact makes a
  // walking context of its own in everything below the call.
  auto [It, New] = T.cache().NonlocalClosures.try_emplace(T.F.Node.id);
  if (New)
    walk(T.F.body(), [&](TSNode N) {
      // walk visits nested functions without entering them: look inside.
      if (is(N, "function_definition"))
        walkWithDepth(N, [&](TSNode Inner, unsigned) {
          It->second |= is(Inner, "nonlocal_statement");
          return !It->second;
        });
      return !It->second;
    });
  if (!It->second)
    return {};
  ConstArg C;
  C.Global = closureFrameKey(T.F.QualName);
  C.Truthy = true;
  C.NoneKnown = false;
  return {C};
}

std::vector<ConstArg> PyFunctionContext::closureFactsAt(const std::vector<ParamTest> &When) const {
  std::vector<ConstArg> Out;
  if (When.empty() || !definesClosures(T))
    return Out;
  for (const ParamTest &PT : When)
    if (PT.Global.empty() && PT.Attr.empty() && !PT.ofClass()) {
      ConstArg C = PT.fact();
      C.Index = 0;
      C.Global = closureFactKey(T.F.QualName, PT.Index);
      Out.push_back(std::move(C));
    }
  return Out;
}

namespace {

// The name of T's function's own `**kwargs` where the body only reads it or
// passes it on (Pops: and takes keys out with `.pop`), else "".
// The name of T's function's `**kwargs` parameter, else "": a cheap test
// before ownKwargs walks the body.
std::string_view kwargsParameter(const PyTypes &T) {
  if (T.F.IsModuleBody || T.F.IsLambda)
    return {};
  std::string_view Name;
  for (TSNode Param : namedChildren(field(T.F.Node, "parameters")))
    if (is(Param, "dictionary_splat_pattern"))
      Name = T.M.Src->text(ts_node_named_child(Param, 0));
  return Name;
}

std::string_view ownKwargs(const PyTypes &T, bool *Pops = nullptr) {
  const PyFunctionDef &F = T.F;
  const PySource &S = *T.M.Src;
  std::string_view Name = kwargsParameter(T);
  if (Name.empty())
    return {};
  // Every use of the name in the body, nested functions included, only
  // reads the mapping or passes it on by `**`.
  bool OnlyRead = true;
  std::vector<TSNode> Path;
  walkWithDepth(F.body(), [&](TSNode N, unsigned Depth) {
    Path.resize(Depth);
    Path.push_back(N);
    if (!OnlyRead)
      return false;
    if (!is(N, "identifier") || S.text(N) != Name || Depth == 0)
      return true;
    TSNode Up = Path[Depth - 1];
    if (is(Up, "dictionary_splat") || is(Up, "comparison_operator") || is(Up, "not_operator") ||
        is(Up, "boolean_operator") || ts_node_eq(field(Up, "condition"), N))
      return true;
    if (is(Up, "attribute") && ts_node_eq(field(Up, "object"), N) && Depth >= 2 &&
        is(Path[Depth - 2], "call")) {
      std::string_view Method = S.text(field(Up, "attribute"));
      if (Pops && Method == "pop")
        *Pops = true;
      for (std::string_view Reads : {"get", "pop", "items", "keys", "values", "copy"})
        if (Method == Reads)
          return true;
    }
    OnlyRead = false;
    return false;
  });
  return OnlyRead ? Name : std::string_view();
}

} // namespace

bool passesOwnKwargs(const PyTypes &Caller, TSNode Splat) {
  if (!is(Splat, "dictionary_splat"))
    return false;
  TSNode Passed = unparen(ts_node_named_child(Splat, 0));
  std::string_view Name = kwargsParameter(Caller);
  return is(Passed, "identifier") && !Name.empty() && Caller.M.Src->text(Passed) == Name &&
         !ownKwargs(Caller).empty();
}

std::optional<KwargsRead> kwargsRead(const PyTypes &T, TSNode E) {
  E = unparen(E);
  const PySource &S = *T.M.Src;
  TSNode Fn = is(E, "call") ? unparen(field(E, "function")) : TSNode{};
  if (!is(Fn, "attribute") || !is(unparen(field(Fn, "object")), "identifier"))
    return std::nullopt;
  std::string_view Method = S.text(field(Fn, "attribute"));
  if (Method != "get" && Method != "pop")
    return std::nullopt;
  std::string_view Name = kwargsParameter(T);
  if (Name.empty() || S.text(unparen(field(Fn, "object"))) != Name || ownKwargs(T).empty())
    return std::nullopt;
  CallArgs A = argsOf(S, E);
  if (A.Positional.empty() || A.Positional.size() > 2 || !A.Keywords.empty())
    return std::nullopt;
  auto Key = plainString(S, unparen(A.Positional[0]));
  if (!Key)
    return std::nullopt;
  KwargsRead R{std::move(*Key), ConstArg{KwargsParam}};
  R.Default.IsNone = true; // `.get(k)` gives None where k is missing
  if (A.Positional.size() == 2) {
    auto D = literalArgument(S, A.Positional[1], KwargsParam);
    if (!D)
      return std::nullopt;
    R.Default = *D;
  }
  return R;
}

std::vector<ConstArg> literalArguments(const PyTypes &Caller, const std::string &Callee,
                                       TSNode Call) {
  const PyProgram &P = Caller.P;
  const PySource &S = *Caller.M.Src;
  std::vector<ConstArg> Out;
  std::set<unsigned> Bound;
  for (const auto &[Index, Arg] : boundArguments(Caller, Callee, Call)) {
    Bound.insert(Index);
    if (auto C = literalArgument(S, Arg, Index)) {
      Out.push_back(*C);
    } else if (TSNode Name = unparen(Arg); is(Name, "identifier")) {
      // `inner(x, capturing)`: the value the caller was given, still unchanged.
      if (int From = Caller.parameterAt(S.text(Name), beginOf(Name)); From >= 0)
        Out.push_back(ConstArg{Index, false, false, From});
    }
  }
  // A parameter the call leaves out holds its default, unless `*args` or
  // `**kwargs` may fill it: the caller's own `**kwargs` passed on fills
  // nothing where it is empty.
  CallArgs A = calleeArgs(Caller, Callee, Call);
  const auto [F, M] = P.signature(Callee);
  if (!F || !M)
    return Out;
  std::vector<std::string> Names = parameterNames(*M->Src, *F);
  // Keywords whose keys are known, from a dict a helper returns.
  std::vector<std::string> Returned;
  bool Conditional = false;
  for (TSNode N : A.Positional) {
    if (is(N, "list_splat") || (is(N, "dictionary_splat") && Conditional))
      return Out;
    if (!is(N, "dictionary_splat"))
      continue;
    if (auto Keys = returnedKeywords(Caller, N)) {
      Returned.insert(Returned.end(), Keys->begin(), Keys->end());
      continue;
    }
    if (!passesOwnKwargs(Caller, N))
      return Out;
    Conditional = true;
  }
  for (const auto &K : Returned)
    if (auto It = std::find(Names.begin(), Names.end(), K); It != Names.end())
      Bound.insert(static_cast<unsigned>(It - Names.begin()));
  for (ConstArg C : parameterDefaultFacts(*F, *M->Src))
    if (!Bound.count(C.Index)) {
      C.IfKwargsEmpty = Conditional;
      Out.push_back(std::move(C));
    }
  // The callee's own `**kwargs` holds the keywords no parameter takes.
  if (takesKwargs(*F)) {
    auto unnamed = [&](std::string_view K) {
      return std::find(Names.begin(), Names.end(), K) == Names.end();
    };
    bool Extra =
        std::any_of(A.Keywords.begin(), A.Keywords.end(),
                    [&](const auto &K) { return unnamed(K.first); }) ||
        std::any_of(Returned.begin(), Returned.end(), [&](const auto &K) { return unnamed(K); });
    ConstArg Kwargs{KwargsParam};
    Kwargs.Truthy = Extra;
    Kwargs.IfKwargsEmpty = Conditional && !Extra;
    Out.push_back(Kwargs);
    // Which keys it holds, and the literal values of those passed here.
    std::vector<std::string> Keys;
    for (const auto &[K, V] : A.Keywords)
      if (unnamed(K)) {
        Keys.emplace_back(K);
        if (auto C = literalArgument(S, V, KwargsParam)) {
          C->Attr = std::string(K);
          Out.push_back(std::move(*C));
        }
      }
    for (const auto &K : Returned)
      if (unnamed(K))
        Keys.push_back(K);
    if (!Conditional) {
      Out.push_back(kwargsKeysFact(std::move(Keys)));
    } else if (bool Pops = false; !Extra && !ownKwargs(Caller, &Pops).empty() && !Pops) {
      // The caller's `**kwargs` handed on whole: the keys its callers put in.
      ConstArg Same{KwargsParam};
      Same.Attr = Same.FromAttr = KwargsKeys;
      Same.From = KwargsParam;
      Out.push_back(std::move(Same));
    }
  }
  return Out;
}

std::vector<ConstArg> parameterDefaultFacts(const PyFunctionDef &F, const PySource &S) {
  std::vector<ConstArg> Out;
  std::vector<TSNode> Defaults = parameterDefaults(F);
  for (unsigned I = 0; I < Defaults.size(); ++I)
    if (!ts_node_is_null(Defaults[I]))
      if (auto C = literalArgument(S, Defaults[I], I))
        Out.push_back(*C);
  return Out;
}

bool takesKwargs(const PyFunctionDef &F) {
  if (F.IsModuleBody)
    return false;
  for (TSNode Param : namedChildren(field(F.Node, "parameters")))
    if (is(Param, "dictionary_splat_pattern"))
      return true;
  return false;
}

} // namespace graphsafe::lint::py
