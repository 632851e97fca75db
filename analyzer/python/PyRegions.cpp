#include "PyCallGraph.h"
#include "PyCaptureEffects.h"
#include "PyContext.h"
#include "PyPlatform.h"
#include "resolve/LibrarySemantics.h"

#include <algorithm>
#include <cctype>
#include <fmt/args.h>
#include <fmt/format.h>
#include <optional>

namespace graphsafe::lint::py {

namespace {

bool endsFlow(TSNode Block) {
  auto Stmts = namedChildren(Block);
  if (Stmts.empty())
    return false;
  auto K = kind(Stmts.back());
  return K == "return_statement" || K == "raise_statement" || K == "continue_statement" ||
         K == "break_statement";
}

int statusTest(const PyProgram &P, const PyModuleInfo &M, const PyTypes &T, const CaptureSpec &Spec,
               TSNode Cond, int Depth);

// The block of an except clause that always ends by raising: its last
// statement raises and nothing in it returns, breaks or continues (nested
// definitions aside). Null for any other handler.
TSNode reraisingHandler(TSNode Clause) {
  TSNode Block{};
  for (TSNode C : namedChildren(Clause))
    if (is(C, "block"))
      Block = C;
  if (ts_node_is_null(Block) || ts_node_named_child_count(Block) == 0 ||
      !is(namedChildren(Block).back(), "raise_statement"))
    return {};
  bool Leaves = false;
  walk(Block, [&](TSNode N) {
    if (is(N, "function_definition") || is(N, "lambda") || is(N, "class_definition"))
      return false;
    Leaves |= is(N, "return_statement") || is(N, "break_statement") || is(N, "continue_statement");
    return !Leaves;
  });
  return Leaves ? TSNode{} : Block;
}

// Whether a body names a capture-status query or CUDA's availability
// (`is_current_stream_capturing`, `is_available`).
bool mentionsStatus(const PySource &S, TSNode Body) {
  bool Found = false;
  walk(Body, [&](TSNode N) {
    if (Found)
      return false;
    if (is(N, "identifier")) {
      std::string_view Name = S.text(N);
      Found = Name.find("captur") != std::string_view::npos || Name == "is_available" ||
              Name == "is_initialized";
    }
    return true;
  });
  return Found;
}

// A project function that returns a capture-status test (`def capturing():
// return torch.cuda.is_current_stream_capturing()`) tests it wherever it is
// called: the sign of what all its returns test, else 0.
int helperStatus(const PyProgram &P, const std::string &Q, const CaptureSpec &Spec, int Depth,
                 PyTypeCache &Memo) {
  if (auto It = Memo.HelperStatus.find(Q); It != Memo.HelperStatus.end())
    return It->second;
  // Only a function whose code names a capture (`is_current_stream_capturing`)
  // can test one: the index says so without reading its body, which would
  // make this module depend on it.
  if (const PyFunctionDef *Idx = P.functionIndex(Q); !Idx || !Idx->MentionsCapture)
    return Memo.HelperStatus[Q] = 0;
  const PyFunctionDef *F = P.function(Q);
  const PyModuleInfo *M = P.moduleOfFunction(Q);
  if (!F || !M || F->IsModuleBody || Depth > 2)
    return 0;
  PyTypeCache Cache;
  PyTypes T(P, *M, *F, Cache);
  int Sign = 0;
  bool Other = false, Fallback = false;
  walk(F->body(), [&](TSNode N) {
    if (!is(N, "return_statement"))
      return true;
    TSNode V = ts_node_named_child(N, 0);
    // `return False` where the status query is missing (an old torch, no
    // CUDA build): no capture can be open there.
    if (is(V, "false")) {
      Fallback = true;
      return false;
    }
    int S = ts_node_is_null(V) ? 0 : statusTest(P, *M, T, Spec, V, Depth + 1);
    if (S == 0 || (Sign != 0 && S != Sign))
      Other = true;
    Sign = S;
    return false;
  });
  if (Fallback && Sign < 0)
    Sign = 0;
  return Memo.HelperStatus[Q] = Other ? 0 : Sign;
}

// The capture-status test in an `if` condition: +1 when its being false
// means not capturing, -1 when its being true does, 0 when the condition
// says nothing. `a or capturing()` false means capturing() is false;
// `not capturing() and a` true means capturing() is false.
int statusTest(const PyProgram &P, const PyModuleInfo &M, const PyTypes &T, const CaptureSpec &Spec,
               TSNode Cond, int Depth) {
  Cond = unparen(Cond);
  int Sign = 1;
  while (is(Cond, "not_operator")) {
    Sign = -Sign;
    Cond = unparen(field(Cond, "argument"));
  }
  if (is(Cond, "boolean_operator")) {
    std::string_view Op = M.Src->text(field(Cond, "operator"));
    int L = statusTest(P, M, T, Spec, field(Cond, "left"), Depth);
    int R = statusTest(P, M, T, Spec, field(Cond, "right"), Depth);
    int Want = Op == "or" ? 1 : -1;
    if (L == Want || R == Want)
      return Sign * Want;
    // `available() and capturing()`: false means one of them is.
    return L == -Want && R == -Want ? Sign * -Want : 0;
  }
  // `capturing = torch.cuda.is_current_stream_capturing()` and aliases of
  // it, when that is the only binding that reaches the test.
  if (is(Cond, "identifier") && Depth < 4) {
    TSNode Bound = T.onlyBoundExpr(M.Src->text(Cond), beginOf(Cond));
    return ts_node_is_null(Bound) ? 0 : Sign * statusTest(P, M, T, Spec, Bound, Depth + 1);
  }
  if (!is(Cond, "call"))
    return 0;
  std::string Q = T.resolve(field(Cond, "function"));
  if (listed(Spec.PyStatusQueries, Q) || holdsWhileCapturing(Q))
    return Sign;
  if (holdsOnlyWhileTracing(Q))
    return -Sign;
  if (!Q.empty() && P.isFunction(Q))
    return Sign * helperStatus(P, Q, Spec, Depth, T.cache());
  return 0;
}

// A project function that opens a capture for its caller, whatever its
// name: it returns a capture context manager (`return torch.cuda.graph(g)`,
// an accelerator's `capture_to_graph`), or it is a generator context
// manager that yields inside one. `with helper(g):` is then a region.
bool opensCapture(const PyTypes &Caller, const std::string &Q, const CaptureSpec &Spec, int Depth);

TSNode capturingExpr(const PyTypes &T, const CaptureSpec &Spec, TSNode V, int Depth);

bool capturingCall(const PyTypes &T, const CaptureSpec &Spec, TSNode Call, int Depth) {
  Call = unparen(Call);
  if (!is(Call, "call"))
    return false;
  std::string Q = T.resolve(field(Call, "function"));
  if (listed(Spec.PyContextManagers, Q))
    return true;
  // An instance of a project class whose `__enter__` begins a capture (and
  // whose `__exit__` ends it): `with DeviceGraphContext(graph):`.
  if (T.P.classNamed(Q))
    if (std::string Enter = T.P.methodOf(Q, "__enter__");
        !Enter.empty() && leavesCaptureOpen(T, Spec, Enter))
      return true;
  for (const auto &K : calleesOf(T, Call).Keys)
    if (K.rfind("py:", 0) == 0 && T.P.isFunction(K.substr(3)) &&
        opensCapture(T, K.substr(3), Spec, Depth + 1))
      return true;
  return false;
}

TSNode capturingExpr(const PyTypes &T, const CaptureSpec &Spec, TSNode V, int Depth) {
  V = unparen(V);
  if (ts_node_is_null(V) || Depth > 4)
    return {};
  if (is(V, "call"))
    return capturingCall(T, Spec, V, Depth) ? V : TSNode{};
  if (is(V, "conditional_expression")) {
    // `a if test else b`: children 0 and 2 are the values.
    for (uint32_t I : {0u, 2u})
      if (TSNode C = capturingExpr(T, Spec, ts_node_named_child(V, I), Depth + 1);
          !ts_node_is_null(C))
        return C;
    return {};
  }
  if (!is(V, "identifier"))
    return {};
  // `ctx = torch.cuda.graph(g) if step == k else nullcontext()` or bound in
  // an if/else: the `with ctx:` captures on the paths where it holds one.
  const std::string_view Name = T.M.Src->text(V);
  std::vector<unsigned> At = {beginOf(V)};
  for (unsigned Also : T.alsoReaching(Name, beginOf(V)))
    At.push_back(Also);
  for (unsigned Offset : At)
    if (TSNode C = capturingExpr(T, Spec, T.boundExpr(Name, Offset), Depth + 1);
        !ts_node_is_null(C))
      return C;
  return {};
}

bool opensCapture(const PyTypes &Caller, const std::string &Q, const CaptureSpec &Spec, int Depth) {
  PyTypeCache &Cache = Caller.cache();
  if (auto It = Cache.OpensCapture.find(Q); It != Cache.OpensCapture.end())
    return It->second;
  const PyProgram &P = Caller.P;
  const PyFunctionDef *F = P.function(Q);
  const PyModuleInfo *M = P.moduleOfFunction(Q);
  if (!F || !M || F->IsModuleBody || F->IsLambda || Depth > 3 || Cache.Depth > 2)
    return false;
  Cache.OpensCapture[Q] = false; // a recursive helper opens nothing by recursing
  ++Cache.Depth;
  PyTypes T(P, *M, *F, Cache);
  const bool Generator = isContextManager(P, Q);
  bool Returns = false, Other = false, Yields = false;
  walk(F->body(), [&](TSNode N) {
    if (is(N, "return_statement")) {
      TSNode V = ts_node_named_child(N, 0);
      (!ts_node_is_null(capturingExpr(T, Spec, V, Depth)) ? Returns : Other) |=
          !ts_node_is_null(V);
      return false;
    }
    if (Generator && is(N, "yield"))
      for (TSNode Up = parentOf(N); !ts_node_is_null(Up) && !ts_node_eq(Up, F->Node);
           Up = parentOf(Up))
        if (is(Up, "with_statement"))
          for (TSNode V : withContexts(Up))
            Yields |= !ts_node_is_null(capturingExpr(T, Spec, V, Depth));
    return true;
  });
  --Cache.Depth;
  return Cache.OpensCapture[Q] = Generator ? Yields : Returns && !Other;
}

int statusTest(const PyFunctionContext &Ctx, const CaptureSpec &Spec, TSNode Cond) {
  return statusTest(Ctx.T.P, Ctx.T.M, Ctx.T, Spec, Cond, 0);
}

bool refusesCapture(const PyTypes &Caller, const std::string &Q, const CaptureSpec &Spec,
                    int Depth);

// A `with` that swallows what its block raises (`pytest.raises(E)`,
// `self.assertRaises(E)`, `contextlib.suppress(E)`): code after it runs.
bool catches(const PySource &S, TSNode With) {
  for (TSNode C : withContexts(With)) {
    TSNode Fn = is(C, "call") ? unparen(field(C, "function")) : TSNode{};
    if (is(Fn, "attribute"))
      Fn = field(Fn, "attribute");
    std::string_view Name = is(Fn, "identifier") ? S.text(Fn) : std::string_view();
    if (Name == "raises" || Name == "suppress" || Name.rfind("assertRaises", 0) == 0)
      return true;
  }
  return false;
}

bool hasElse(TSNode If) {
  for (TSNode C : namedChildren(If))
    if (is(C, "else_clause") || is(C, "elif_clause"))
      return true;
  return false;
}

// A call, made as a statement, of project functions that all raise under
// capture (`reject_graph_capture("op")`): nothing after it runs there.
bool refusingCall(const PyTypes &T, const CaptureSpec &Spec, TSNode Call, int Depth) {
  if (!is(parentOf(Call), "expression_statement"))
    return false;
  Callees C = calleesOf(T, Call);
  return !C.Keys.empty() && std::all_of(C.Keys.begin(), C.Keys.end(), [&](const std::string &K) {
    return K.rfind("py:", 0) == 0 && T.P.isFunction(K.substr(3)) &&
           refusesCapture(T, K.substr(3), Spec, Depth + 1);
  });
}

// Whether a project function raises whenever it runs under capture, read
// statement by statement from the top of its body: `if not capturing():
// return` is passed over, `if capturing(): raise`, a bare raise or a call
// of another such function settles it, any other return ends the search.
bool refusesCapture(const PyTypes &Caller, const std::string &Q, const CaptureSpec &Spec,
                    int Depth) {
  PyTypeCache &Cache = Caller.cache();
  if (auto It = Cache.RefusesCapture.find(Q); It != Cache.RefusesCapture.end())
    return It->second;
  const PyProgram &P = Caller.P;
  Cache.RefusesCapture[Q] = false;
  // The index tells a function that names no capture without reading its
  // body (a read makes the caller's module depend on that body).
  if (const PyFunctionDef *Idx = P.functionIndex(Q); !Idx || !Idx->MentionsCapture)
    return false;
  const PyFunctionDef *F = P.function(Q);
  const PyModuleInfo *M = P.moduleOfFunction(Q);
  if (!F || !M || F->IsModuleBody || F->IsLambda || Depth > 3)
    return false;
  if (!mentionsStatus(*M->Src, F->body()))
    return false;
  PyTypes T(P, *M, *F, Cache);
  bool Refuses = false;
  for (TSNode Stmt : namedChildren(F->body())) {
    if (is(Stmt, "raise_statement")) {
      Refuses = true;
      break;
    }
    if (is(Stmt, "expression_statement") && is(ts_node_named_child(Stmt, 0), "call") &&
        refusingCall(T, Spec, ts_node_named_child(Stmt, 0), Depth)) {
      Refuses = true;
      break;
    }
    if (is(Stmt, "if_statement") && !hasElse(Stmt)) {
      int Test = statusTest(P, *M, T, Spec, field(Stmt, "condition"), 0);
      TSNode Then = field(Stmt, "consequence");
      if (Test > 0 && leavesFunction(Then) && is(namedChildren(Then).back(), "raise_statement")) {
        Refuses = true;
        break;
      }
      if (Test < 0)
        continue; // not taken under capture
    }
    bool Returns = false;
    walk(Stmt, [&](TSNode N) {
      Returns |= is(N, "return_statement");
      return !Returns && !is(N, "function_definition") && !is(N, "lambda");
    });
    if (Returns)
      break;
  }
  return Cache.RefusesCapture[Q] = Refuses;
}

// A test as written, spacing dropped, so that one test spelled twice matches.
std::string testKey(const PySource &S, TSNode N) {
  std::string Out;
  for (char C : S.text(unparen(N)))
    if (!std::isspace(static_cast<unsigned char>(C)))
      Out += C;
  return Out;
}

void operands(const PySource &S, TSNode N, std::string_view Op, std::vector<TSNode> &Out) {
  N = unparen(N);
  if (is(N, "boolean_operator") && S.text(field(N, "operator")) == Op) {
    operands(S, field(N, "left"), Op, Out);
    operands(S, field(N, "right"), Op, Out);
    return;
  }
  Out.push_back(N);
}

// What a check that leaves under capture tells the rest of its block: after
// `if capturing and (not a or b): raise`, capture goes on only where `a`
// holds and `b` does not.
struct KnownTest {
  std::string Key; // the test with its `not`s taken off
  bool Holds;
};
std::vector<KnownTest> knownAfter(const PyFunctionContext &Ctx, const CaptureSpec &Spec,
                                  TSNode Cond) {
  std::vector<TSNode> Conjuncts, Rest;
  operands(Ctx.S, Cond, "and", Conjuncts);
  bool Capturing = false;
  for (TSNode C : Conjuncts) {
    if (statusTest(Ctx, Spec, C) > 0)
      Capturing = true;
    else
      Rest.push_back(C);
  }
  std::vector<KnownTest> Out;
  if (!Capturing || Rest.size() != 1)
    return Out;
  std::vector<TSNode> Disjuncts;
  operands(Ctx.S, Rest[0], "or", Disjuncts);
  for (TSNode D : Disjuncts) {
    bool Holds = false;
    D = unparen(D);
    while (is(D, "not_operator")) {
      Holds = !Holds;
      D = unparen(field(D, "argument"));
    }
    Out.push_back({testKey(Ctx.S, D), Holds});
  }
  return Out;
}

bool guardedAt(const PyFunctionContext &Ctx, unsigned Offset) {
  return std::any_of(Ctx.Guarded.begin(), Ctx.Guarded.end(),
                     [&](const auto &G) { return G.first <= Offset && Offset < G.second; });
}

// A list that starts empty and is filled only where capture does not run is
// empty under capture: `if pending:` after a loop that skips filling it while
// capturing (`if capturing: continue`).
bool emptyUnderCapture(const PyFunctionContext &Ctx, TSNode If, TSNode Cond) {
  const PySource &S = Ctx.S;
  // What runs after the test matters only when a loop brings it round again.
  bool Looped = false;
  for (TSNode Up = parentOf(If); !ts_node_is_null(Up) && !ts_node_eq(Up, Ctx.T.F.Node);
       Up = parentOf(Up))
    Looped |= is(Up, "for_statement") || is(Up, "while_statement");
  Cond = unparen(Cond);
  if (is(Cond, "comparison_operator") && ts_node_named_child_count(Cond) == 2 &&
      S.text(ts_node_named_child(Cond, 1)) == "0" &&
      (comparisonOperator(S, Cond) == ">" || comparisonOperator(S, Cond) == "!="))
    Cond = ts_node_named_child(Cond, 0);
  if (is(Cond, "call") && S.text(field(Cond, "function")) == "len") {
    CallArgs A = argsOf(S, Cond);
    if (A.Positional.size() != 1 || !A.Keywords.empty())
      return false;
    Cond = A.Positional[0];
  }
  if (!is(Cond, "identifier"))
    return false;
  std::string_view Name = S.text(Cond);
  TSNode Bound = Ctx.T.onlyBoundExpr(Name, beginOf(Cond));
  if (!is(Bound, "list") || ts_node_named_child_count(Bound) != 0)
    return false;
  static constexpr std::string_view Fills[] = {"append", "extend", "insert", "__setitem__",
                                               "__iadd__"};
  bool Empty = true;
  int Bindings = 0;
  walk(Ctx.body(), [&](TSNode N) {
    if (!Empty)
      return false;
    if (!is(N, "identifier") || S.text(N) != Name || (!Looped && beginOf(N) >= beginOf(If)))
      return true;
    TSNode Up = parentOf(N);
    bool Fill = false;
    if (is(Up, "attribute") && ts_node_eq(field(Up, "object"), N))
      Fill = std::find(std::begin(Fills), std::end(Fills), S.text(field(Up, "attribute"))) !=
             std::end(Fills);
    else if ((is(Up, "assignment") || is(Up, "augmented_assignment")) &&
             ts_node_eq(field(Up, "left"), N))
      Fill = is(Up, "augmented_assignment") || ++Bindings > 1;
    else if (is(Up, "subscript") && is(parentOf(Up), "assignment"))
      Fill = true;
    else if (is(Up, "argument_list"))
      Fill = S.text(field(parentOf(Up), "function")) != "len";
    if (Fill && !guardedAt(Ctx, beginOf(N)))
      Empty = false;
    return true;
  });
  return Empty;
}

} // namespace

TSNode capturingContext(const PyTypes &T, const CaptureSpec &Spec, TSNode V) {
  return capturingExpr(T, Spec, V, 0);
}

void findRegions(PyFunctionContext &Ctx, const CaptureSpec &Spec) {
  const PySource &S = Ctx.S;
  const PyTypes &T = Ctx.T;
  struct Open {
    std::string Graph, Canonical, Stream;
    unsigned Begin;
    TSNode Call;
  };
  std::vector<Open> Pending;
  struct Fact {
    KnownTest Test;
    unsigned From, To;
  };
  std::vector<Fact> RuledOut; // tests known under capture in [From, To)
  // An end with no begin here ends a capture the caller began: everything
  // before it in this function runs in that capture.
  auto close = [&](const std::string &Canonical, TSNode Call, const std::string &Stream) {
    auto It = std::find_if(Pending.rbegin(), Pending.rend(),
                           [&](const Open &O) { return O.Canonical == Canonical; });
    if (It == Pending.rend()) {
      if (Pending.empty() && !T.F.IsModuleBody)
        Ctx.Regions.push_back(
            {beginOf(Ctx.body()), beginOf(Call), S.loc(T.F.Node), "", TSNode{}, Call, "", Stream});
      return;
    }
    Ctx.Regions.push_back(
        {It->Begin, beginOf(Call), S.loc(It->Call), It->Graph, It->Call, Call, It->Stream, Stream});
    Pending.erase(std::next(It).base());
  };
  // What follows Stmt in its block does not run under capture; when Stmt
  // leaves the function, neither does what follows the `with` statements
  // holding that block (`with torch.cuda.device(d): if capturing: raise`).
  auto guardRest = [&](TSNode Stmt, bool Leaves) {
    TSNode Block = parentOf(Stmt);
    Ctx.Guarded.push_back({endOf(Stmt), endOf(Block)});
    if (Leaves)
      for (TSNode With = parentOf(Block); is(With, "with_statement") && !catches(S, With);
           With = parentOf(Block)) {
        Block = parentOf(With);
        Ctx.Guarded.push_back({endOf(With), endOf(Block)});
      }
  };
  walk(Ctx.body(), [&](TSNode N) {
    auto K = kind(N);
    if (K == "except_clause") {
      // `except Exception: cleanup(); raise`: the handler runs only on the
      // way out of a capture that is failing already.
      if (TSNode Block = reraisingHandler(N); !ts_node_is_null(Block))
        Ctx.Guarded.push_back({beginOf(Block), endOf(Block)});
      return true;
    }
    if (K == "with_statement") {
      for (TSNode V : withContexts(N)) {
        TSNode Call = capturingExpr(T, Spec, V, 0);
        if (ts_node_is_null(Call))
          continue;
        TSNode Body = field(N, "body");
        CallArgs A = argsOf(S, Call);
        TSNode G = !A.Positional.empty() ? A.Positional[0] : A.keyword("cuda_graph");
        PyRegion R{beginOf(Body), endOf(Body), S.loc(N),
                    ts_node_is_null(G) ? "" : std::string(S.text(G)), N};
        R.Made = Call;
        Ctx.Regions.push_back(std::move(R));
      }
    } else if (K == "call") {
      TSNode Fn = field(N, "function");
      std::string Method = is(Fn, "attribute") ? std::string(S.text(field(Fn, "attribute"))) : "";
      if (listed(Spec.PyBegin, Method) || listed(Spec.PyEnd, Method)) {
        std::string Graph(S.text(field(Fn, "object")));
        std::string Canonical = canonicalSpelling(T, Graph);
        std::string Stream = canonicalSpelling(T, streamAt(T, N));
        if (listed(Spec.PyBegin, Method))
          Pending.push_back({Graph, Canonical, Stream, endOf(N), N});
        else
          close(Canonical, N, Stream);
        return true;
      }
      if (refusingCall(T, Spec, N, 0)) {
        guardRest(parentOf(N), true);
        return true;
      }
      // A helper that begins a capture and returns with it open, or ends
      // one: what runs between its call and the end is captured.
      for (const CaptureEffect &E : captureEffects(T, Spec, N)) {
        Ctx.CallEffects.push_back({N, E});
        if (E.K == CaptureEffect::Begins)
          Pending.push_back({E.Graph.empty() ? std::string(S.text(N)) : E.Graph,
                             E.Graph.empty() ? "call:" + std::to_string(beginOf(N)) : E.Graph,
                             E.Stream, endOf(N), N});
        else if (E.K == CaptureEffect::Ends)
          close(E.Graph, N, E.Stream);
      }
    } else if (K == "if_statement" || K == "elif_clause") {
      TSNode Cond = field(N, "condition");
      int Test = statusTest(Ctx, Spec, Cond);
      // An elif counts only where its own test asks for the capture status.
      if (Test == 0 && K == "elif_clause")
        return true;
      if (Test == 0) {
        TSNode Plain = unparen(Cond);
        int Polarity = -1;
        while (is(Plain, "not_operator")) {
          Polarity = -Polarity;
          Plain = unparen(field(Plain, "argument"));
        }
        std::string Key = testKey(S, Plain);
        for (const auto &F : RuledOut)
          if (F.Test.Key == Key && F.From <= beginOf(N) && endOf(N) <= F.To)
            Test = F.Test.Holds ? -Polarity : Polarity;
        if (Test == 0 && emptyUnderCapture(Ctx, N, Plain))
          Test = Polarity;
      }
      if (Test == 0) {
        TSNode Then = field(N, "consequence");
        if (endsFlow(Then))
          for (KnownTest &K : knownAfter(Ctx, Spec, Cond))
            RuledOut.push_back({std::move(K), endOf(N), endOf(parentOf(N))});
        return true;
      }
      TSNode Then = field(N, "consequence");
      // What runs when the test fails: the elif and else clauses after it
      // (`if ready: ... elif capturing: ... else: <sync>`).
      TSNode If = K == "if_statement" ? N : parentOf(N);
      std::optional<std::pair<unsigned, unsigned>> Else;
      for (TSNode C : namedChildren(If))
        if ((is(C, "elif_clause") || is(C, "else_clause")) && beginOf(C) >= endOf(Then)) {
          Else = {beginOf(C), endOf(If)};
          break;
        }
      if (Test < 0) {
        Ctx.Guarded.push_back({beginOf(Then), endOf(Then)});
        if (Else)
          Ctx.CaptureOnly.push_back(*Else);
      } else {
        Ctx.CaptureOnly.push_back({beginOf(Then), endOf(Then)});
        if (Else)
          Ctx.Guarded.push_back(*Else);
        // `if capturing: return` keeps the rest of the block out of capture
        // (after an elif, an earlier branch may have run instead).
        if (K == "if_statement" && endsFlow(Then))
          guardRest(If, leavesFunction(Then));
      }
    }
    return true;
  });
  // Begun here, ended by a caller or never: capture runs to the end.
  for (const auto &O : Pending)
    Ctx.Regions.push_back(
        {O.Begin, endOf(Ctx.body()), S.loc(O.Call), O.Graph, O.Call, TSNode{}, O.Stream, ""});
}

const PyRegion *PyFunctionContext::regionAt(unsigned Offset) const {
  for (const auto &R : Regions)
    if (R.Begin <= Offset && Offset < R.End)
      return &R;
  return nullptr;
}

CaptureContext PyFunctionContext::contextAt(unsigned Offset, SourceLoc *RegionBegin) const {
  const PyRegion *R = regionAt(Offset);
  // A guard says what runs outside the capture of a caller (`if
  // in_graph(): return fn()` ahead of the function's own capture): a region
  // begun inside it is a capture of its own, guarded only by tests in it.
  for (const auto &[B, E] : Guarded)
    if (B <= Offset && Offset < E && (!R || R->Begin <= B))
      return CaptureContext::Guarded;
  if (R) {
    if (RegionBegin)
      *RegionBegin = R->BeginLoc;
    return CaptureContext::InRegion;
  }
  // Top-level code runs once, from no caller: outside any region it is not
  // captured.
  return Regions.empty() && !T.F.IsModuleBody ? CaptureContext::Ambient : CaptureContext::Outside;
}

void PyFunctionContext::report(const Rule &R, TSNode N, const std::string &Callee) {
  Site Site;
  Site.Context = contextAt(beginOf(N), &Site.RegionBegin);
  if (Site.Context == CaptureContext::Outside || Site.Context == CaptureContext::Guarded ||
      (R.isHostSideEffect() && captureOnly(beginOf(N))))
    return;
  Site.RuleId = R.Id;
  if (R.Python.Message.empty()) {
    Site.Message = R.formatMessage(Callee);
  } else {
    fmt::dynamic_format_arg_store<fmt::format_context> Args;
    Args.push_back(fmt::arg("callee", Callee));
    Site.Message = fmt::vformat(R.Python.Message, Args);
  }
  Site.Fix = R.Python.Fix;
  Site.Loc = S.loc(N);
  Site.When = testsAt(N);
  if (!runsUnderModes(Site.When, N) || offPlatform(T, N))
    return;
  Site.EnvGate = envGateAt(N);
  Out.Sites.push_back(std::move(Site));
}

void PyFunctionContext::reportCheck(const std::string &Check, TSNode N, const std::string &Message,
                                    std::vector<Note> Notes, bool Always,
                                    std::vector<ParamTest> Also) {
  SourceLoc RegionBegin;
  CaptureContext Context = contextAt(beginOf(N), &RegionBegin);
  if (Always) {
    Context = CaptureContext::InRegion;
    RegionBegin = {};
  } else if (Context == CaptureContext::Outside || Context == CaptureContext::Guarded) {
    return;
  }
  reportCheckIn(Check, N, Message, std::move(Notes), Context, RegionBegin, std::move(Also));
}

void PyFunctionContext::reportCheckIn(const std::string &Check, TSNode N,
                                      const std::string &Message, std::vector<Note> Notes,
                                      CaptureContext Context, SourceLoc RegionBegin,
                                      std::vector<ParamTest> Also) {
  auto It = CheckRules.find(Check);
  if (It == CheckRules.end() || (It->second->isHostSideEffect() && captureOnly(beginOf(N))))
    return;
  Site Site;
  Site.Context = Context;
  Site.RegionBegin = RegionBegin;
  Site.RuleId = It->second->Id;
  Site.Message = Message;
  Site.Fix = It->second->Python.Fix;
  Site.Loc = S.loc(N);
  Site.Notes = std::move(Notes);
  Site.When = testsAt(N);
  if (!runsUnderModes(Site.When, N) || offPlatform(T, N))
    return;
  Site.When.insert(Site.When.end(), Also.begin(), Also.end());
  Site.EnvGate = envGateAt(N);
  Out.Sites.push_back(std::move(Site));
}

} // namespace graphsafe::lint::py
