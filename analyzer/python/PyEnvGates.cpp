// Code that runs only when the environment sets a variable (a debug dump
// under `if os.environ.get("MYPROJ_DEBUG"):`) is off in the runs users make
// by default: what it does under capture is said as a note. Sites and calls
// record the variable they wait for; the reachability walk carries it into
// what such a call reaches, unless the function is also reached ungated.
#include "PyContext.h"

#include <algorithm>
#include <optional>

namespace graphsafe::lint::py {

namespace {

// os.environ.get("X"[, d]), os.getenv("X"[, d]), os.environ["X"].
struct EnvRead {
  std::string Name;
  TSNode Default{}; // Null: none given (None when unset; a KeyError for [])
};

std::optional<EnvRead> envRead(const PyTypes &T, TSNode E) {
  E = unparen(E);
  const PySource &S = *T.M.Src;
  if (is(E, "subscript") && T.resolve(field(E, "value")) == "os.environ") {
    std::string Name = stringLiteral(S, field(E, "subscript"));
    if (!Name.empty())
      return EnvRead{Name};
    return std::nullopt;
  }
  if (!is(E, "call"))
    return std::nullopt;
  std::string Callee = T.resolve(field(E, "function"));
  if (Callee != "os.environ.get" && Callee != "os.getenv")
    return std::nullopt;
  CallArgs A = argsOf(S, E);
  if (A.Positional.empty())
    return std::nullopt;
  EnvRead R{stringLiteral(S, A.Positional[0])};
  if (R.Name.empty())
    return std::nullopt;
  if (A.Positional.size() > 1)
    R.Default = A.Positional[1];
  else if (TSNode D = A.keyword("default"); !ts_node_is_null(D))
    R.Default = D;
  return R;
}

// The read under conversions that keep "unset" unset: int(...), bool(...),
// str(...), .lower(), .strip(), ...
std::optional<EnvRead> envValue(const PyTypes &T, TSNode E) {
  E = unparen(E);
  if (auto R = envRead(T, E))
    return R;
  if (!is(E, "call"))
    return std::nullopt;
  TSNode Fn = field(E, "function");
  CallArgs A = argsOf(*T.M.Src, E);
  std::string_view Spelled = T.M.Src->text(Fn);
  if (is(Fn, "identifier") && A.Positional.size() == 1 &&
      (Spelled == "int" || Spelled == "bool" || Spelled == "str" || Spelled == "float"))
    return envValue(T, A.Positional[0]);
  if (is(Fn, "attribute") && A.Positional.empty()) {
    std::string_view Method = T.M.Src->text(field(Fn, "attribute"));
    if (Method == "lower" || Method == "upper" || Method == "strip" || Method == "casefold")
      return envValue(T, field(Fn, "object"));
  }
  return std::nullopt;
}

// What a variable holds while the environment leaves it unset, as text ("":
// None or the empty string).
std::string unsetValue(const PySource &S, const EnvRead &R) {
  if (ts_node_is_null(R.Default))
    return "";
  TSNode D = unparen(R.Default);
  if (is(D, "none") || is(D, "false"))
    return "";
  if (is(D, "true"))
    return "1";
  if (is(D, "integer") || is(D, "float"))
    return std::string(S.text(D));
  return is(D, "string") ? stringLiteral(S, D) : "?";
}

bool off(const std::string &Unset) {
  return Unset.empty() || Unset == "0" || Unset == "false" || Unset == "False" || Unset == "no" ||
         Unset == "off";
}

// The literals `== L` or `in (L1, L2)` compare against.
std::vector<std::string> comparedTo(const PySource &S, TSNode Rhs) {
  Rhs = unparen(Rhs);
  std::vector<TSNode> Items = is(Rhs, "tuple") || is(Rhs, "list") || is(Rhs, "set")
                                  ? namedChildren(Rhs)
                                  : std::vector<TSNode>{Rhs};
  std::vector<std::string> Out;
  for (TSNode I : Items) {
    std::string L = is(I, "integer") ? std::string(S.text(I)) : stringLiteral(S, I);
    if (L.empty() && !(is(I, "string") && S.text(I).size() <= 3)) // "" is a value too
      return {};
    Out.push_back(L);
  }
  return Out;
}

std::optional<std::string> setTest(const PyTypes &T, TSNode E, int Depth);

// `os.environ.get("X", "0") in ("0", "")`, `== "1"`, `!= "0"`, `not in`:
// the variable, and whether the comparison holds while it is unset (then
// its failing branch needs the variable set, and the other way round).
struct EnvComparison {
  std::string Name;
  bool HoldsUnset = false;
};
std::optional<EnvComparison> envComparison(const PyTypes &T, TSNode E) {
  E = unparen(E);
  const PySource &S = *T.M.Src;
  std::string Op = comparisonOperator(S, E);
  if (Op.empty())
    return std::nullopt;
  TSNode Lhs = ts_node_child(E, 0), Rhs = ts_node_child(E, ts_node_child_count(E) - 1);
  bool Member = Op == "==" || Op == "in";
  if (!Member && Op != "!=" && Op != "not in")
    return std::nullopt;
  auto R = envValue(T, Lhs);
  if (!R)
    return std::nullopt;
  std::vector<std::string> Values = comparedTo(S, Rhs);
  std::string Unset = unsetValue(S, *R);
  if (Values.empty() || Unset == "?")
    return std::nullopt;
  bool UnsetAmong = std::find(Values.begin(), Values.end(), Unset) != Values.end();
  return EnvComparison{R->Name, Member == UnsetAmong};
}

// The one module-level assignment of Name in S (`DEBUG: int = ...` too),
// or null when there is none or more than one.
TSNode onlyModuleAssignment(const PySource &S, std::string_view Name) {
  TSNode Bound{};
  for (TSNode Stmt : namedChildren(S.root())) {
    if (!is(Stmt, "expression_statement") || ts_node_named_child_count(Stmt) != 1)
      continue;
    TSNode A = ts_node_named_child(Stmt, 0);
    if (is(A, "assignment") && S.text(field(A, "left")) == Name) {
      if (!ts_node_is_null(Bound))
        return {};
      Bound = field(A, "right");
    }
  }
  return Bound;
}

// A name bound, in this function, at module level, or at the top level of
// the project module it is imported from (`from .utils import DEBUG`), to
// such a test.
std::optional<std::string> namedTest(const PyTypes &T, TSNode Name, int Depth) {
  const PySource &S = *T.M.Src;
  std::string_view Spelled = S.text(Name);
  if (T.parameterAt(Spelled, beginOf(Name)) >= 0)
    return std::nullopt;
  if (TSNode Local = T.boundExpr(Spelled, beginOf(Name)); !ts_node_is_null(Local))
    return setTest(T, Local, Depth + 1);
  if (auto Global = T.importedGlobal(Spelled)) {
    const PyTypes &Home = *Global->first;
    TSNode Bound = onlyModuleAssignment(*Home.M.Src, Global->second);
    return ts_node_is_null(Bound) ? std::nullopt : setTest(Home, Bound, Depth + 1);
  }
  TSNode Bound = onlyModuleAssignment(S, Spelled);
  return ts_node_is_null(Bound) ? std::nullopt : setTest(T, Bound, Depth + 1);
}

// The variable E holds only when the environment sets it, if any.
std::optional<std::string> setTest(const PyTypes &T, TSNode E, int Depth) {
  E = unparen(E);
  if (Depth > 8 || ts_node_is_null(E))
    return std::nullopt;
  const PySource &S = *T.M.Src;
  if (is(E, "boolean_operator")) {
    auto L = setTest(T, field(E, "left"), Depth + 1);
    std::string_view Op = S.text(field(E, "operator"));
    if (Op == "and")
      return L ? L : setTest(T, field(E, "right"), Depth + 1);
    return L && setTest(T, field(E, "right"), Depth + 1) ? L : std::nullopt;
  }
  if (is(E, "identifier"))
    return namedTest(T, E, Depth);
  if (auto R = envValue(T, E))
    return ts_node_is_null(R->Default) || off(unsetValue(S, *R)) ? std::optional(R->Name)
                                                                 : std::nullopt;
  if (!is(E, "comparison_operator") || ts_node_child_count(E) != 3)
    return std::nullopt;
  TSNode Lhs = ts_node_child(E, 0), Rhs = ts_node_child(E, 2);
  std::string_view Op = kind(ts_node_child(E, 1));
  // "X" in os.environ
  if (Op == "in" && T.resolve(Rhs) == "os.environ") {
    std::string Name = stringLiteral(S, Lhs);
    return Name.empty() ? std::nullopt : std::optional(Name);
  }
  if (auto C = envComparison(T, E); C && !C->HoldsUnset)
    return C->Name;
  return std::nullopt;
}

} // namespace

std::string PyFunctionContext::envGateAt(TSNode N) const {
  std::string Gate;
  enclosingTests(N, body(), [&](TSNode Cond, bool Holds) {
    // `else` of `if not os.environ.get("X")`, or after `if not ...: return`;
    // after `if os.environ.get("X", "0") in ("0", ""): return`.
    Cond = unparen(Cond);
    if (!Holds)
      if (auto C = envComparison(T, Cond); C && C->HoldsUnset) {
        Gate = C->Name;
        return true;
      }
    if (!Holds && !is(Cond, "not_operator"))
      return false;
    if (auto G = setTest(T, Holds ? Cond : field(Cond, "argument"), 0))
      Gate = *G;
    return !Gate.empty();
  });
  return Gate;
}

} // namespace graphsafe::lint::py
