#include "PyCheck.h"

#include <fmt/format.h>

#include <algorithm>

namespace graphsafe::lint::py {

namespace {

// A graph object's spelling the check can follow: `g`, `self.graph`.
bool simpleSpelling(const std::string &G) {
  return !G.empty() && G.find_first_of("[(") == std::string::npos;
}

// The branch of If that holds N: its consequence, or one of its elif/else
// clauses; null when N is in the condition or outside.
TSNode branchOf(TSNode If, TSNode N) {
  for (TSNode C : namedChildren(If))
    if ((is(C, "block") || is(C, "elif_clause") || is(C, "else_clause")) && contains(C, N))
      return C;
  return TSNode{};
}

// Whether A and B sit in different branches of one `if`: never both run.
bool exclusive(TSNode A, TSNode B) {
  for (TSNode P = ts_node_parent(A); !ts_node_is_null(P) && !isScope(P); P = ts_node_parent(P)) {
    if (!is(P, "if_statement") || !contains(P, B))
      continue;
    TSNode BA = branchOf(P, A), BB = branchOf(P, B);
    return !ts_node_is_null(BA) && !ts_node_is_null(BB) && !ts_node_eq(BA, BB);
  }
  return false;
}

// Graph object lifecycle in Python: one capture at a time (a capture begun
// inside another, here or in a function a capture reaches), one capture per
// graph object unless reset, and the end of an explicit capture_begin() on
// every path.
class PyLifecycleCheck : public PyCheck {
public:
  explicit PyLifecycleCheck(const CaptureSpec &Spec) : Spec(Spec) {}

  void run(PyFunctionContext &Ctx) override {
    for (const auto &R : Ctx.Regions) {
      if (ts_node_is_null(R.Opener))
        continue;
      checkNested(Ctx, R);
      checkTwice(Ctx, R);
      checkRaise(Ctx, R);
    }
    checkSharedPoolOrder(Ctx);
  }

private:
  const CaptureSpec &Spec;

  // The pool argument of a region's opener (`pool=other.pool()`, a handle,
  // or graph()'s second positional argument), as spelled.
  static std::string poolOf(const PySource &S, const PyRegion &R) {
    TSNode Call = R.Opener;
    if (is(Call, "with_statement")) {
      Call = TSNode{};
      for (TSNode V : withContexts(R.Opener))
        if (is(V, "call"))
          Call = V;
    }
    if (ts_node_is_null(Call) || !is(Call, "call"))
      return "";
    CallArgs A = argsOf(S, Call);
    TSNode P = A.keyword("pool");
    bool Graph = is(R.Opener, "with_statement");
    if (ts_node_is_null(P) && A.Positional.size() > (Graph ? 1u : 0u))
      P = A.Positional[Graph ? 1 : 0];
    return ts_node_is_null(P) ? "" : std::string(S.text(P));
  }

  // Graphs that share a memory pool must replay in the order they were
  // captured: a later graph's replay may overwrite memory the earlier one's
  // outputs and intermediates still occupy.
  void checkSharedPoolOrder(PyFunctionContext &Ctx) {
    const PySource &S = Ctx.S;
    struct Captured {
      const PyRegion *R;
      std::string Pool;
      std::vector<TSNode> Replays;
    };
    std::vector<Captured> Graphs;
    for (const auto &R : Ctx.Regions)
      if (simpleSpelling(R.Graph) && !ts_node_is_null(R.Opener))
        Graphs.push_back({&R, poolOf(S, R), {}});
    if (Graphs.size() < 2)
      return;
    std::sort(Graphs.begin(), Graphs.end(), [](const Captured &A, const Captured &B) {
      return beginOf(A.R->Opener) < beginOf(B.R->Opener);
    });
    walk(Ctx.body(), [&](TSNode N) {
      if (!is(N, "call"))
        return true;
      std::string_view Replayed = replayedGraph(S, Spec, N);
      for (auto &G : Graphs)
        if (!Replayed.empty() && Replayed == G.R->Graph)
          G.Replays.push_back(N);
      return true;
    });
    // The first replay of G once both graphs are captured.
    auto firstAfter = [](const Captured &G, unsigned At) {
      for (TSNode N : G.Replays)
        if (beginOf(N) > At)
          return N;
      return TSNode{};
    };
    // Graph B shares A's pool when B names A's pool, or both name one handle.
    auto shares = [&](const Captured &A, const Captured &B) {
      return !B.Pool.empty() && (B.Pool == A.R->Graph + ".pool()" || B.Pool == A.Pool);
    };
    for (size_t I = 0; I < Graphs.size(); ++I)
      for (size_t J = I + 1; J < Graphs.size(); ++J) {
        const Captured &A = Graphs[I], &B = Graphs[J];
        unsigned Both = endOf(B.R->Opener);
        TSNode RA = firstAfter(A, Both), RB = firstAfter(B, Both);
        if (!shares(A, B) || ts_node_is_null(RA) || ts_node_is_null(RB) ||
            beginOf(RB) > beginOf(RA))
          continue;
        Ctx.reportCheck(
            "shared-pool-replay-order", RB,
            fmt::format("'{}' shares a memory pool with '{}', captured before it, but is "
                        "replayed first: graphs sharing a pool must replay in capture order, or "
                        "one overwrites memory the other's outputs and temporaries still occupy",
                        B.R->Graph, A.R->Graph),
            {{fmt::format("'{}' was captured here", A.R->Graph), A.R->BeginLoc},
             {fmt::format("'{}' was captured here, in the same pool", B.R->Graph), B.R->BeginLoc},
             {fmt::format("'{}' is first replayed here, after '{}'", A.R->Graph, B.R->Graph),
              S.loc(RA)}},
            true);
      }
  }

  static const PyRegion *enclosing(const PyFunctionContext &Ctx, const PyRegion &R) {
    unsigned At = beginOf(R.Opener);
    const PyRegion *Best = nullptr;
    for (const auto &O : Ctx.Regions)
      if (&O != &R && O.Begin <= At && At < O.End && (!Best || O.Begin > Best->Begin) &&
          (ts_node_is_null(O.Opener) || !exclusive(O.Opener, R.Opener)))
        Best = &O;
    return Best;
  }

  static void checkNested(PyFunctionContext &Ctx, const PyRegion &R) {
    const std::string Msg =
        "a capture begins while another capture is under way: capture_begin fails in the "
        "default global mode, and the two graphs' dependencies tangle";
    if (const PyRegion *Outer = enclosing(Ctx, R)) {
      Ctx.reportCheckIn("nested-capture", R.Opener, Msg, {}, CaptureContext::InRegion,
                        Outer->BeginLoc);
      return;
    }
    // Not inside one here: nested exactly when a capture reaches this function.
    for (const auto &[B, E] : Ctx.Guarded)
      if (B <= beginOf(R.Opener) && beginOf(R.Opener) < E)
        return;
    Ctx.reportCheckIn("nested-capture", R.Opener, Msg, {}, CaptureContext::Ambient);
  }

  // Whether [From, To) rebinds or resets the graph object.
  static bool renewed(const PyFunctionContext &Ctx, const std::string &G, unsigned From,
                      unsigned To) {
    const PySource &S = Ctx.S;
    bool Found = false;
    walk(Ctx.body(), [&](TSNode N) {
      if (Found || endOf(N) <= From || beginOf(N) >= To)
        return !Found;
      if (is(N, "assignment") || is(N, "for_statement")) {
        TSNode Target = field(N, is(N, "assignment") ? "left" : "left");
        std::string T(S.text(Target));
        Found = T == G || T.find(G + ",") == 0 || T.find(", " + G) != std::string::npos;
      } else if (is(N, "call")) {
        TSNode Fn = field(N, "function");
        Found = is(Fn, "attribute") && S.text(field(Fn, "attribute")) == "reset" &&
                S.text(field(Fn, "object")) == G;
      }
      return !Found;
    });
    return Found;
  }

  static void checkTwice(PyFunctionContext &Ctx, const PyRegion &R) {
    if (!simpleSpelling(R.Graph))
      return;
    const std::string Msg = fmt::format(
        "'{}' is captured again without reset(): a CUDAGraph holds one graph, and capture fails "
        "('This CUDAGraph instance already owns a captured graph')",
        R.Graph);
    for (const auto &O : Ctx.Regions)
      if (&O != &R && O.Graph == R.Graph && !ts_node_is_null(O.Opener) &&
          beginOf(O.Opener) < beginOf(R.Opener) && !exclusive(O.Opener, R.Opener) &&
          !renewed(Ctx, R.Graph, endOf(O.Opener), beginOf(R.Opener))) {
        Ctx.reportCheck("capture-begin-twice", R.Opener, Msg,
                        {{fmt::format("'{}' was captured here", R.Graph), O.BeginLoc}}, true);
        return;
      }
    for (TSNode P = ts_node_parent(R.Opener); !ts_node_is_null(P) && !isScope(P);
         P = ts_node_parent(P))
      if (isLoop(P) && !renewed(Ctx, R.Graph, beginOf(P), endOf(P))) {
        Ctx.reportCheck("capture-begin-twice", R.Opener, Msg,
                        {{"the loop repeats the capture on the same graph object", Ctx.S.loc(P)}},
                        true);
        return;
      }
  }

  // raise and assert between capture_begin() and capture_end() skip the end
  // unless a try around them can end it; `with torch.cuda.graph` ends it
  // itself.
  static void checkRaise(PyFunctionContext &Ctx, const PyRegion &R) {
    if (!is(R.Opener, "call") || R.End >= endOf(Ctx.body()))
      return;
    TSNode Thrower{};
    walk(Ctx.body(), [&](TSNode N) {
      if (!ts_node_is_null(Thrower) || endOf(N) <= R.Begin || beginOf(N) >= R.End)
        return ts_node_is_null(Thrower);
      if (is(N, "try_statement"))
        return false;
      if (is(N, "raise_statement") || is(N, "assert_statement")) {
        Thrower = N;
        return false;
      }
      return true;
    });
    if (ts_node_is_null(Thrower))
      return;
    std::string What = is(Thrower, "raise_statement") ? "a raise" : "a failing assert";
    Ctx.reportCheck("throw-leaves-capture-open", R.Opener,
                    fmt::format("{} between this capture_begin() and its capture_end() skips the "
                                "end, leaving the stream capturing",
                                What),
                    {{What + " may leave the capture here, skipping the end", Ctx.S.loc(Thrower)}},
                    true);
  }
};

} // namespace

std::unique_ptr<PyCheck> makePyLifecycleCheck(const CaptureSpec &Spec) {
  return std::make_unique<PyLifecycleCheck>(Spec);
}

} // namespace graphsafe::lint::py
