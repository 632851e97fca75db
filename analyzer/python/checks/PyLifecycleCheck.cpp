#include "PyCheck.h"

#include "../PyCallGraph.h"
#include "../PyCaptureEffects.h"

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
  for (TSNode P = parentOf(A); !ts_node_is_null(P) && !isScope(P); P = parentOf(P)) {
    if (!is(P, "if_statement") || !contains(P, B))
      continue;
    TSNode BA = branchOf(P, A), BB = branchOf(P, B);
    return !ts_node_is_null(BA) && !ts_node_is_null(BB) && !ts_node_eq(BA, BB);
  }
  return false;
}

// The name a `for` loop counts with: `i` of `for i in range(n)` or of
// `for i, x in enumerate(xs)`, which takes a different value on every
// iteration; empty for other loops.
std::string_view loopIndex(const PySource &S, TSNode Loop) {
  if (!is(Loop, "for_statement"))
    return {};
  TSNode Left = unparen(field(Loop, "left")), Right = unparen(field(Loop, "right"));
  if (!is(Right, "call"))
    return {};
  std::string_view Fn = S.text(field(Right, "function"));
  if (Fn == "range" && is(Left, "identifier"))
    return S.text(Left);
  if (Fn == "enumerate" && (is(Left, "pattern_list") || is(Left, "tuple_pattern")))
    if (TSNode First = ts_node_named_child(Left, 0); is(First, "identifier"))
      return S.text(First);
  return {};
}

// Whether E has one value on every iteration of Loop: literals, and names
// and attributes (`self.GRAPH_WARMUPS + 1`) the loop's body never assigns,
// joined by operators; no call (its result may change) and not the index.
bool invariantIn(const PySource &S, TSNode Loop, std::string_view Index, TSNode E) {
  bool Invariant = true;
  std::vector<std::string_view> Read;
  walk(E, [&](TSNode N) {
    if (is(N, "call") || is(N, "subscript") || is(N, "lambda") || is(N, "named_expression"))
      Invariant = false;
    else if (is(N, "identifier") || is(N, "attribute")) {
      Read.push_back(S.text(N));
      Invariant &= S.text(N) != Index;
      return false;
    }
    return Invariant;
  });
  if (!Invariant)
    return false;
  walk(field(Loop, "body"), [&](TSNode N) {
    if (is(N, "assignment") || is(N, "augmented_assignment") || is(N, "for_statement"))
      walk(field(N, "left"), [&](TSNode T) {
        // `warmup = ...` rebinds `warmup` and `warmup.n`; `self.n = ...`
        // only `self.n`.
        const bool Name = is(T, "identifier");
        for (std::string_view R : Read)
          Invariant &= S.text(T) != R && !(Name && R.substr(0, R.find('.')) == S.text(T));
        return Invariant && !is(T, "attribute") && !is(T, "subscript");
      });
    return Invariant;
  });
  return Invariant;
}

// Whether Cond, holding, pins the loop index Index to one value: `i == 0`,
// `step == warmup + 1` with what it is compared with the same on every
// iteration, either way round, or such a test joined by `and`.
bool pinsIndex(const PySource &S, TSNode Loop, std::string_view Index, TSNode Cond) {
  Cond = unparen(Cond);
  if (is(Cond, "boolean_operator") && kind(ts_node_child(Cond, 1)) == "and")
    return pinsIndex(S, Loop, Index, field(Cond, "left")) ||
           pinsIndex(S, Loop, Index, field(Cond, "right"));
  if (!is(Cond, "comparison_operator") || ts_node_child_count(Cond) != 3 ||
      kind(ts_node_child(Cond, 1)) != "==")
    return false;
  TSNode L = unparen(ts_node_child(Cond, 0)), R = unparen(ts_node_child(Cond, 2));
  auto named = [&](TSNode N) { return is(N, "identifier") && S.text(N) == Index; };
  TSNode Other = named(L) ? R : named(R) ? L : TSNode{};
  return !ts_node_is_null(Other) && invariantIn(S, Loop, Index, Other);
}

// Whether Node, inside Loop, runs on one iteration at most: under an `if`
// or `elif` whose test pins the loop's index (`if i == 0:` capture, else
// replay; `elif step == warmup + 1:`).
bool onceInLoop(const PySource &S, TSNode Loop, TSNode Node) {
  std::string_view Index = loopIndex(S, Loop);
  if (Index.empty())
    return false;
  for (TSNode Q = Node, P = parentOf(Node); !ts_node_is_null(P) && !ts_node_eq(Q, Loop);
       Q = P, P = parentOf(P))
    if ((is(P, "if_statement") || is(P, "elif_clause")) && ts_node_eq(field(P, "consequence"), Q) &&
        pinsIndex(S, Loop, Index, field(P, "condition")))
      return true;
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
      checkStreams(Ctx, R);
      if (ts_node_is_null(R.Opener))
        continue;
      checkNested(Ctx, R);
      checkRaise(Ctx, R);
    }
    checkNestedGraphedCallables(Ctx);
    checkTwice(Ctx);
    checkSharedPoolOrder(Ctx);
  }

private:
  const CaptureSpec &Spec;

  // The pool argument of a region's opener (`pool=other.pool()`, a handle,
  // or graph()'s second positional argument), as spelled.
  static std::string poolOf(const PySource &S, const PyRegion &R) {
    TSNode Call = is(R.Opener, "with_statement") ? R.Made : R.Opener;
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
    reportNested(Ctx, R.Opener, enclosing(Ctx, R));
  }

  // make_graphed_callables captures its callables there and then (warm-up
  // on a side stream, then one capture per callable and pass).
  void checkNestedGraphedCallables(PyFunctionContext &Ctx) {
    walk(Ctx.body(), [&](TSNode N) {
      if (!is(N, "call"))
        return true;
      std::string Q = Ctx.T.resolve(field(N, "function"));
      for (const auto &H : Spec.PyGraphedCallables)
        if (H.Name == Q) {
          const PyRegion *Outer = Ctx.regionAt(beginOf(N));
          if (Outer && !ts_node_is_null(Outer->Opener) && exclusive(Outer->Opener, N))
            Outer = nullptr;
          reportNested(Ctx, N, Outer);
          break;
        }
      return true;
    });
  }

  static void reportNested(PyFunctionContext &Ctx, TSNode Opener, const PyRegion *Outer) {
    const std::string Msg =
        "a capture begins while another capture is under way: capture_begin fails in the "
        "default global mode, and the two graphs' dependencies tangle";
    if (Outer) {
      Ctx.reportCheckIn("nested-capture", Opener, Msg, {}, CaptureContext::InRegion,
                        Outer->BeginLoc);
      return;
    }
    // Not inside one here: nested exactly when a capture reaches this function.
    for (const auto &[B, E] : Ctx.Guarded)
      if (B <= beginOf(Opener) && beginOf(Opener) < E)
        return;
    Ctx.reportCheckIn("nested-capture", Opener, Msg, {}, CaptureContext::Ambient);
  }

  // Whether [From, To) rebinds or resets the graph object (canonical G).
  // A call that may do it for us counts too, so as not to report what we
  // cannot see: a project function handed the graph or its owner, or a
  // method of its owner, that captures nothing itself.
  bool renewed(const PyFunctionContext &Ctx, const std::string &G, unsigned From,
               unsigned To) const {
    const PySource &S = Ctx.S;
    auto names = [&](TSNode E) {
      E = unparen(E);
      if (!is(E, "identifier") && !is(E, "attribute"))
        return false;
      std::string C = canonicalSpelling(Ctx.T, std::string(S.text(E)));
      return C == G || G.rfind(C + ".", 0) == 0;
    };
    bool Found = false;
    walk(Ctx.body(), [&](TSNode N) {
      if (Found || endOf(N) <= From || beginOf(N) >= To)
        return !Found;
      if (is(N, "assignment") || is(N, "for_statement")) {
        // Any name or attribute the target binds, however nested
        // (`for i, (fn, graph) in ...`).
        walk(field(N, "left"), [&](TSNode X) {
          if (is(X, "identifier") || is(X, "attribute")) {
            Found |= canonicalSpelling(Ctx.T, std::string(S.text(X))) == G;
            return false;
          }
          return !is(X, "subscript");
        });
      } else if (is(N, "call")) {
        TSNode Fn = field(N, "function");
        bool Reset = is(Fn, "attribute") && S.text(field(Fn, "attribute")) == "reset" &&
                     names(field(Fn, "object"));
        bool Handed = false;
        if (!Reset) {
          Handed = is(Fn, "attribute") && names(field(Fn, "object"));
          for (TSNode A : argsOf(S, N).Positional)
            Handed |= names(A);
          if (Handed) {
            bool Project = false;
            for (const auto &K : calleesOf(Ctx.T, N).Keys)
              Project |= K.rfind("py:", 0) == 0 && Ctx.T.P.isFunction(K.substr(3));
            Handed = Project && captureEffects(Ctx.T, Spec, N).empty();
          }
        }
        Found = Reset || Handed;
      }
      return !Found;
    });
    return Found;
  }

  // A capture of one graph object: a region here, or one a call makes.
  struct Capture {
    TSNode Node;
    // The call that makes a `with`'s capture context, where a local holds it
    // (`ctx = torch.cuda.graph(g)` under `if step == k:`); else null.
    TSNode Made{};
    std::string Graph, Canonical;
    bool Renews = false; // the callee rebinds or resets the graph first
    SourceLoc Inside;    // where a call captures, in its callee
  };

  std::vector<Capture> capturesOf(PyFunctionContext &Ctx) const {
    std::vector<Capture> Out;
    std::set<unsigned> Openers; // the calls regions here already stand for
    for (const auto &R : Ctx.Regions) {
      if (ts_node_is_null(R.Opener))
        continue;
      Openers.insert(beginOf(R.Opener));
      if (is(R.Opener, "with_statement")) {
        for (TSNode V : withContexts(R.Opener))
          Openers.insert(beginOf(V));
        Openers.insert(beginOf(R.Made));
      }
      if (simpleSpelling(R.Graph))
        Out.push_back({R.Opener, R.Made, R.Graph, canonicalSpelling(Ctx.T, R.Graph)});
    }
    for (const auto &[N, E] : Ctx.CallEffects)
      if (!Openers.count(beginOf(N)) && E.K == CaptureEffect::Captures && simpleSpelling(E.Graph))
        Out.push_back({N, TSNode{}, displaySpelling(Ctx.T, E.Graph), E.Graph, E.Renews, E.Where});
    std::stable_sort(Out.begin(), Out.end(), [](const Capture &A, const Capture &B) {
      return beginOf(A.Node) < beginOf(B.Node);
    });
    return Out;
  }

  // What the message calls the graph: as this function spells it where it
  // can, else the global's name.
  static std::string shown(const PyFunctionContext &Ctx, const Capture &C) {
    if (C.Inside.File.empty())
      return C.Graph;
    std::string Text(Ctx.S.text(C.Node));
    return Text.substr(0, Text.find('\n'));
  }

  void checkTwice(PyFunctionContext &Ctx) const {
    std::vector<Capture> All = capturesOf(Ctx);
    for (size_t J = 0; J < All.size(); ++J) {
      const Capture &R = All[J];
      const bool ByCall = !R.Inside.File.empty();
      const std::string Msg =
          ByCall ? fmt::format("'{}' captures '{}' again without reset(): a CUDAGraph holds one "
                               "graph, and capture fails ('This CUDAGraph instance already owns a "
                               "captured graph')",
                               shown(Ctx, R), R.Graph)
                 : fmt::format("'{}' is captured again without reset(): a CUDAGraph holds one "
                               "graph, and capture fails ('This CUDAGraph instance already owns a "
                               "captured graph')",
                               R.Graph);
      std::vector<Note> Inner;
      if (ByCall)
        Inner.push_back({"the call captures into it here", R.Inside});
      if (R.Renews)
        continue;
      bool Reported = false;
      for (size_t I = 0; I < J && !Reported; ++I) {
        const Capture &O = All[I];
        if (O.Canonical != R.Canonical || ts_node_eq(O.Node, R.Node) || exclusive(O.Node, R.Node) ||
            renewed(Ctx, R.Canonical, endOf(O.Node), beginOf(R.Node)))
          continue;
        std::vector<Note> Notes = {
            {fmt::format("'{}' was captured here", R.Graph), Ctx.S.loc(O.Node)}};
        Notes.insert(Notes.end(), Inner.begin(), Inner.end());
        Ctx.reportCheck("capture-begin-twice", R.Node, Msg, std::move(Notes), true);
        Reported = true;
      }
      for (TSNode P = parentOf(R.Node); !Reported && !ts_node_is_null(P) && !isScope(P);
           P = parentOf(P))
        if (isLoop(P) && !renewed(Ctx, R.Canonical, beginOf(P), endOf(P)) &&
            !onceInLoop(Ctx.S, P, R.Node) &&
            !(!ts_node_is_null(R.Made) && onceInLoop(Ctx.S, P, R.Made))) {
          std::vector<Note> Notes = {
              {"the loop repeats the capture on the same graph object", Ctx.S.loc(P)}};
          Notes.insert(Notes.end(), Inner.begin(), Inner.end());
          Ctx.reportCheck("capture-begin-twice", R.Node, Msg, std::move(Notes), true);
          Reported = true;
        }
    }
  }

  // capture_end must run on the stream capture_begin ran on:
  // torch.cuda.CUDAGraph.capture_end checks it ("Capture must end on the
  // same stream it began on").
  static void checkStreams(PyFunctionContext &Ctx, const PyRegion &R) {
    if (ts_node_is_null(R.Opener) || ts_node_is_null(R.Closer) || R.BeginStream == R.EndStream)
      return;
    auto says = [&Ctx](const std::string &Stream) {
      if (Stream.empty())
        return std::string("the current stream");
      if (Stream.rfind("local:", 0) == 0)
        return fmt::format("a stream the callee makes current ('{}')",
                           Stream.substr(Stream.rfind(':') + 1));
      return fmt::format("'{}'", displaySpelling(Ctx.T, Stream));
    };
    Ctx.reportCheck("capture-end-other-stream", R.Closer,
                    fmt::format("this ends the capture of '{}' on {}, but it began on {}: "
                                "capture_end fails ('Capture must end on the same stream it "
                                "began on') and the stream stays capturing",
                                R.Graph, says(R.EndStream), says(R.BeginStream)),
                    {{"the capture began here", Ctx.S.loc(R.Opener)}}, true);
  }

  // raise and assert between capture_begin() and capture_end() skip the end
  // unless a try around them can end it; `with torch.cuda.graph` ends it
  // itself.
  void checkRaise(PyFunctionContext &Ctx, const PyRegion &R) const {
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
    TSNode Fn = field(R.Opener, "function");
    bool Direct = is(Fn, "attribute") && listed(Spec.PyBegin, Ctx.S.text(field(Fn, "attribute")));
    Ctx.reportCheck(
        "throw-leaves-capture-open", R.Opener,
        fmt::format("{} between {} and {} skips the end, leaving the stream capturing", What,
                    Direct ? "this capture_begin()"
                           : "this call, which begins a capture and returns with it open,",
                    ts_node_is_null(R.Closer)
                        ? "its end"
                        : "the end at line " + std::to_string(Ctx.S.loc(R.Closer).Line)),
        {{What + " may leave the capture here, skipping the end", Ctx.S.loc(Thrower)}}, true);
  }
};

} // namespace

std::unique_ptr<PyCheck> makePyLifecycleCheck(const CaptureSpec &Spec) {
  return std::make_unique<PyLifecycleCheck>(Spec);
}

} // namespace graphsafe::lint::py
