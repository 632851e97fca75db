#include "PyCheck.h"

#include "../PyCallGraph.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace graphsafe::lint::py {

namespace {

// Inside a region, work moved to a side stream (`with torch.cuda.stream(s):`)
// must first wait on the capturing stream (fork) and be waited on before the
// capture ends (join), or capture fails with an unjoined or isolated stream.
class PyStreamCheck : public PyCheck {
public:
  void run(PyFunctionContext &Ctx) override {
    const PySource &S = Ctx.S;
    struct Wait {
      unsigned At;
      std::string Waiter, On; // Waiter.wait_stream(On); On empty for wait_event
    };
    std::vector<Wait> Waits;
    walk(Ctx.body(), [&](TSNode N) {
      if (!is(N, "call"))
        return true;
      TSNode Fn = field(N, "function");
      if (!is(Fn, "attribute"))
        return true;
      std::string_view M = S.text(field(Fn, "attribute"));
      if (M == "wait_stream" || M == "wait_event") {
        CallArgs A = argsOf(S, N);
        Waits.push_back({beginOf(N), std::string(S.text(field(Fn, "object"))),
                         M == "wait_stream" && !A.Positional.empty()
                             ? std::string(S.text(A.Positional[0]))
                             : ""});
      } else if (M == "wait") {
        // `event.wait(stream)`: that stream waits on the event; `event.wait()`
        // or an async collective's `work.wait()`: the current stream does.
        CallArgs A = argsOf(S, N);
        TSNode On = !A.Positional.empty() ? A.Positional[0] : A.keyword("stream");
        Waits.push_back(
            {beginOf(N),
             ts_node_is_null(On) ? "torch.cuda.current_stream()" : std::string(S.text(On)), ""});
      }
      return true;
    });
    walk(Ctx.body(), [&](TSNode N) {
      if (!is(N, "with_statement"))
        return true;
      // A module's own side stream used in forward(): the region is the
      // caller's, so the fork and join must be in this function.
      const PyRegion *R = Ctx.regionAt(beginOf(N));
      PyRegion Whole;
      if (!R) {
        if (Ctx.contextAt(beginOf(N)) != CaptureContext::Ambient)
          return true;
        Whole.Begin = beginOf(Ctx.body());
        Whole.End = endOf(Ctx.body());
        R = &Whole;
      }
      for (TSNode V : withContexts(N)) {
        if (!is(V, "call") || Ctx.T.resolve(field(V, "function")) != "torch.cuda.stream")
          continue;
        CallArgs A = argsOf(S, V);
        if (A.Positional.empty())
          continue;
        std::string Side(S.text(A.Positional[0]));
        if (Side.find("current_stream") != std::string::npos ||
            currentStream(Ctx.T, A.Positional[0]) || Side == "None" ||
            Side == capturingStream(Ctx, *R))
          continue;
        // A stream the caller hands in is a side stream unless the caller
        // passes the current one; one that stands in for None
        // (`stream if stream is not None else current_stream()`) only
        // where the caller passes one.
        std::vector<ParamTest> IfSide;
        if (TSNode P = unparen(A.Positional[0]); is(P, "identifier")) {
          int Index = Ctx.T.parameterAt(S.text(P), beginOf(P));
          if (Index < 0)
            if (Index = currentWhenNone(Ctx.T, P); Index >= 0)
              IfSide.push_back({static_cast<unsigned>(Index), ParamTest::Kind::NotNone});
          if (Index >= 0)
            IfSide.push_back(
                {static_cast<unsigned>(Index), ParamTest::Kind::Truthy, "", SideStream});
        }
        std::set<std::string> Aliases = mayBeSame(Ctx, A.Positional[0]);
        auto same = [&](const std::string &Stream) {
          return Stream == Side || Aliases.count(Stream) ||
                 std::any_of(Aliases.begin(), Aliases.end(), [&](const std::string &Base) {
                   return Stream.size() > Base.size() &&
                          Stream.compare(0, Base.size(), Base) == 0 && Stream[Base.size()] == '[';
                 });
        };
        // The fork may open the block itself: `with torch.cuda.stream(s):
        // s.wait_stream(main)` (or current_stream().wait_stream(main)).
        unsigned ForkEnd = leadingWaitsEnd(S, field(N, "body"));
        bool Forked = false, Joined = false;
        for (const auto &W : Waits) {
          bool Before = W.At >= R->Begin && W.At < beginOf(N) && same(W.Waiter);
          bool Leading = W.At >= beginOf(N) && W.At < ForkEnd &&
                         (same(W.Waiter) || W.Waiter.find("current_stream") != std::string::npos);
          if (Before || Leading)
            Forked = true;
          if (W.At >= endOf(N) && W.At < R->End && (W.On.empty() || same(W.On)))
            Joined = true;
        }
        if (Forked && !Joined)
          Joined = joinedByMethod(Ctx, A.Positional[0]);
        if (!Forked)
          Ctx.reportCheck("side-stream-without-fork", V,
                          fmt::format("side stream '{}' is used in the capture without waiting on "
                                      "the capturing stream first: its work is not part of the "
                                      "graph and capture fails",
                                      Side),
                          {}, false, IfSide);
        else if (!Joined)
          Ctx.reportCheck("fork-not-joined", V,
                          fmt::format("side stream '{}' forks from the capture but the capturing "
                                      "stream never waits on it before the capture ends: capture "
                                      "fails with an unjoined stream",
                                      Side),
                          {}, false, IfSide);
      }
      return true;
    });
  }

private:
  // The parameter a local stream Name stands for, where the local is bound
  // to it or, when it is None, the current stream: `s = stream if stream is
  // not None else torch.cuda.current_stream()`, `s = stream or
  // torch.cuda.current_stream()`. -1 otherwise.
  static int currentWhenNone(const PyTypes &T, TSNode Name) {
    const PySource &S = *T.M.Src;
    TSNode Bound = unparen(T.onlyBoundExpr(S.text(Name), beginOf(Name)));
    TSNode Kept{}, Else{};
    if (is(Bound, "conditional_expression")) {
      auto Parts = namedChildren(Bound); // kept, test, else
      if (Parts.size() != 3)
        return -1;
      TSNode Test = unparen(Parts[1]);
      if (comparisonOperator(S, Test) != "is not" ||
          !is(ts_node_child(Test, ts_node_child_count(Test) - 1), "none") ||
          S.text(unparen(ts_node_child(Test, 0))) != S.text(unparen(Parts[0])))
        return -1;
      Kept = unparen(Parts[0]);
      Else = Parts[2];
    } else if (is(Bound, "boolean_operator") && kind(ts_node_child(Bound, 1)) == "or") {
      Kept = unparen(field(Bound, "left"));
      Else = field(Bound, "right");
    }
    if (!is(Kept, "identifier") || !currentStream(T, Else))
      return -1;
    return T.parameterAt(S.text(Kept), beginOf(Kept));
  }

  // Where a stream is kept on the object: `self.comm_stream`, or the list an
  // element comes from (`s = self._comm_streams[i]`, `for s in
  // self._comm_streams`). Empty for any other stream.
  static std::string storedAt(const PyTypes &T, TSNode E, int Depth = 0) {
    const PySource &S = *T.M.Src;
    E = unparen(E);
    if (ts_node_is_null(E) || Depth > 3)
      return "";
    if (is(E, "subscript"))
      return storedAt(T, field(E, "value"), Depth + 1);
    if (is(E, "attribute")) {
      std::string Text(S.text(E));
      return T.F.takesSelf() && Text.rfind("self.", 0) == 0 ? Text : "";
    }
    if (!is(E, "identifier"))
      return "";
    if (TSNode Over = T.iteratedExpr(S.text(E), beginOf(E)); !ts_node_is_null(Over))
      return storedAt(T, Over, Depth + 1);
    return storedAt(T, T.onlyBoundExpr(S.text(E), beginOf(E)), Depth + 1);
  }

  // A method of the same class that waits on the stream (`def
  // finish_sync(self): for s in self._comm_streams:
  // main.wait_stream(s)`): a fork in one method and its join in another is
  // how a class splits a collective's start from its finish. Which runs
  // first is not checked; the join being there is taken as the join.
  static bool joinedByMethod(const PyFunctionContext &Ctx, TSNode Side) {
    const PyTypes &T = Ctx.T;
    std::set<std::string> Stored;
    if (std::string At = storedAt(T, Side); !At.empty())
      Stored.insert(At);
    // `stream = self.side; with torch.cuda.stream(stream): ...; self.active =
    // stream`: the local is handed to the object for another method to join.
    if (Side = unparen(Side); is(Side, "identifier") && T.F.takesSelf())
      walk(T.F.body(), [&](TSNode N) {
        if (is(N, "assignment") && is(unparen(field(N, "right")), "identifier") &&
            Ctx.S.text(unparen(field(N, "right"))) == Ctx.S.text(Side) &&
            beginOf(N) > beginOf(Side))
          if (std::string At = storedAt(T, field(N, "left")); !At.empty())
            Stored.insert(At);
        return true;
      });
    const PyClassDef *C = Stored.empty() ? nullptr : T.P.classNamed(T.selfClass());
    if (!C || C->Module != &T.M)
      return false; // another file's methods are read nowhere else here
    for (const std::string &Method : C->Methods) {
      const std::string Q = C->QualName + "." + Method;
      const PyFunctionDef *F = T.P.function(Q);
      if (!F || F == &T.F)
        continue;
      PyTypes Other(T.P, T.M, *F, T.cache());
      bool Found = false;
      walk(F->body(), [&](TSNode N) {
        if (Found || !is(N, "call"))
          return !Found;
        TSNode Fn = field(N, "function");
        if (is(Fn, "attribute") && Ctx.S.text(field(Fn, "attribute")) == "wait_stream") {
          CallArgs A = argsOf(Ctx.S, N);
          Found = !A.Positional.empty() && Stored.count(storedAt(Other, A.Positional[0]));
        }
        return true;
      });
      if (Found)
        return true;
    }
    return false;
  }

  // A stream picked from a container by a computed index
  // (`streams[(i - 1) % 2]`) may be any of its elements: the container
  // (whose every `streams[k]` is then the same stream) and, for a local bound
  // to a list or tuple literal, the elements it was built from
  // (`[torch.cuda.current_stream(), cp_stream]`: cp_stream).
  static std::set<std::string> mayBeSame(const PyFunctionContext &Ctx, TSNode Stream) {
    const PySource &S = Ctx.S;
    std::set<std::string> Out;
    Stream = unparen(Stream);
    // `s = ctx.side if ctx.side else torch.cuda.current_stream()`: the side
    // stream when it is one.
    if (is(Stream, "identifier"))
      if (TSNode Bound = unparen(Ctx.T.onlyBoundExpr(S.text(Stream), beginOf(Stream)));
          is(Bound, "conditional_expression") || is(Bound, "boolean_operator")) {
        auto Arms = namedChildren(Bound);
        if (is(Bound, "conditional_expression") && Arms.size() == 3)
          Arms.erase(Arms.begin() + 1);
        for (TSNode E : Arms)
          if (!currentStream(Ctx.T, E))
            Out.insert(std::string(S.text(unparen(E))));
      }
    if (!is(Stream, "subscript"))
      return Out;
    TSNode Index = unparen(field(Stream, "subscript"));
    if (ts_node_is_null(Index) || is(Index, "integer"))
      return Out;
    TSNode Base = unparen(field(Stream, "value"));
    Out.insert(std::string(S.text(Base)));
    if (is(Base, "identifier"))
      if (TSNode Built = unparen(Ctx.T.onlyBoundExpr(S.text(Base), beginOf(Stream)));
          is(Built, "list") || is(Built, "tuple"))
        for (TSNode E : namedChildren(Built))
          // The capturing stream among them needs no fork; the others do.
          if (S.text(E).find("current_stream") == std::string_view::npos)
            Out.insert(std::string(S.text(E)));
    return Out;
  }

  // Where the wait calls that open a block end: the first statement that is
  // not one.
  static unsigned leadingWaitsEnd(const PySource &S, TSNode Body) {
    for (TSNode St : namedChildren(Body)) {
      // `for req in reqs: req.wait()`: waits too.
      if (is(St, "for_statement") &&
          leadingWaitsEnd(S, field(St, "body")) == endOf(field(St, "body")))
        continue;
      TSNode E = is(St, "expression_statement") ? ts_node_named_child(St, 0) : TSNode{};
      TSNode Fn = !ts_node_is_null(E) && is(E, "call") ? field(E, "function") : TSNode{};
      std::string_view M = !ts_node_is_null(Fn) && is(Fn, "attribute")
                               ? S.text(field(Fn, "attribute"))
                               : std::string_view();
      if (M != "wait_stream" && M != "wait_event" && M != "wait")
        return beginOf(St);
    }
    return endOf(Body);
  }

  // The stream the region captures on, where the code names it: the graph's
  // `stream=` argument, or a `with torch.cuda.stream(s):` around capture_begin.
  // A later block on that same stream (capture_end in its own `with`) is the
  // capturing stream again, not a side stream.
  static std::string capturingStream(const PyFunctionContext &Ctx, const PyRegion &R) {
    const PySource &S = Ctx.S;
    if (ts_node_is_null(R.Opener))
      return "";
    if (is(R.Opener, "with_statement")) {
      for (TSNode V : withContexts(R.Opener))
        if (is(V, "call"))
          if (TSNode St = argsOf(S, V).keyword("stream"); !ts_node_is_null(St))
            return std::string(S.text(St));
      return "";
    }
    for (TSNode P = parentOf(R.Opener); !ts_node_is_null(P); P = parentOf(P)) {
      if (!is(P, "with_statement"))
        continue;
      for (TSNode V : withContexts(P)) {
        if (!is(V, "call") || Ctx.T.resolve(field(V, "function")) != "torch.cuda.stream")
          continue;
        CallArgs A = argsOf(S, V);
        if (!A.Positional.empty())
          return std::string(S.text(A.Positional[0]));
      }
    }
    return "";
  }
};

} // namespace

std::unique_ptr<PyCheck> makePyStreamCheck() { return std::make_unique<PyStreamCheck>(); }

} // namespace graphsafe::lint::py
