#include "PyCallGraph.h"
#include "PyCaptureEffects.h"
#include "PyContext.h"

#include <algorithm>
#include <fmt/args.h>
#include <fmt/format.h>

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

// A project function that returns a capture-status test (`def capturing():
// return torch.cuda.is_current_stream_capturing()`) tests it wherever it is
// called: the sign of what all its returns test, else 0.
int helperStatus(const PyProgram &P, const std::string &Q, const CaptureSpec &Spec, int Depth) {
  const PyFunctionDef *F = P.function(Q);
  const PyModuleInfo *M = P.moduleOfFunction(Q);
  if (!F || !M || F->IsModuleBody || Depth > 2)
    return 0;
  PyTypeCache Cache;
  PyTypes T(P, *M, *F, Cache);
  int Sign = 0;
  bool Other = false;
  walk(F->body(), [&](TSNode N) {
    if (!is(N, "return_statement"))
      return true;
    TSNode V = ts_node_named_child(N, 0);
    int S = ts_node_is_null(V) ? 0 : statusTest(P, *M, T, Spec, V, Depth + 1);
    if (S == 0 || (Sign != 0 && S != Sign))
      Other = true;
    Sign = S;
    return false;
  });
  return Other ? 0 : Sign;
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
    return (L == Want || R == Want) ? Sign * Want : 0;
  }
  if (!is(Cond, "call"))
    return 0;
  std::string Q = T.resolve(field(Cond, "function"));
  if (listed(Spec.PyStatusQueries, Q))
    return Sign;
  if (!Q.empty() && P.isFunction(Q))
    return Sign * helperStatus(P, Q, Spec, Depth);
  return 0;
}

// A project function that opens a capture for its caller, whatever its
// name: it returns a capture context manager (`return torch.cuda.graph(g)`,
// an accelerator's `capture_to_graph`), or it is a generator context
// manager that yields inside one. `with helper(g):` is then a region.
bool opensCapture(const PyTypes &Caller, const std::string &Q, const CaptureSpec &Spec, int Depth);

bool capturingCall(const PyTypes &T, const CaptureSpec &Spec, TSNode Call, int Depth) {
  Call = unparen(Call);
  if (!is(Call, "call"))
    return false;
  if (listed(Spec.PyContextManagers, T.resolve(field(Call, "function"))))
    return true;
  for (const auto &K : calleesOf(T, Call).Keys)
    if (K.rfind("py:", 0) == 0 && T.P.isFunction(K.substr(3)) &&
        opensCapture(T, K.substr(3), Spec, Depth + 1))
      return true;
  return false;
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
      (capturingCall(T, Spec, V, Depth) ? Returns : Other) |= !ts_node_is_null(V);
      return false;
    }
    if (Generator && is(N, "yield"))
      for (TSNode Up = ts_node_parent(N); !ts_node_is_null(Up) && !ts_node_eq(Up, F->Node);
           Up = ts_node_parent(Up))
        if (is(Up, "with_statement"))
          for (TSNode V : withContexts(Up))
            Yields |= capturingCall(T, Spec, V, Depth);
    return true;
  });
  --Cache.Depth;
  return Cache.OpensCapture[Q] = Generator ? Yields : Returns && !Other;
}

int statusTest(const PyFunctionContext &Ctx, const CaptureSpec &Spec, TSNode Cond) {
  return statusTest(Ctx.T.P, Ctx.T.M, Ctx.T, Spec, Cond, 0);
}

} // namespace

bool capturingContext(const PyTypes &T, const CaptureSpec &Spec, TSNode Call) {
  return capturingCall(T, Spec, Call, 0);
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
  walk(Ctx.body(), [&](TSNode N) {
    auto K = kind(N);
    if (K == "with_statement") {
      for (TSNode V : withContexts(N)) {
        if (!capturingCall(T, Spec, V, 0))
          continue;
        TSNode Body = field(N, "body");
        CallArgs A = argsOf(S, V);
        TSNode G = !A.Positional.empty() ? A.Positional[0] : A.keyword("cuda_graph");
        Ctx.Regions.push_back({beginOf(Body), endOf(Body), S.loc(N),
                               ts_node_is_null(G) ? "" : std::string(S.text(G)), N});
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
    } else if (K == "if_statement") {
      int Test = statusTest(Ctx, Spec, field(N, "condition"));
      if (Test == 0)
        return true;
      TSNode Then = field(N, "consequence");
      TSNode Else{};
      for (TSNode C : namedChildren(N))
        if (is(C, "else_clause"))
          Else = field(C, "body");
      if (Test < 0) {
        Ctx.Guarded.push_back({beginOf(Then), endOf(Then)});
      } else {
        if (!ts_node_is_null(Else))
          Ctx.Guarded.push_back({beginOf(Else), endOf(Else)});
        // `if capturing: return` keeps the rest of the block out of capture,
        // and a raise or return the rest of the blocks `with` statements
        // hold it in (`with torch.cuda.device(d): if capturing: raise`).
        if (endsFlow(Then)) {
          TSNode Block = ts_node_parent(N);
          Ctx.Guarded.push_back({endOf(N), endOf(Block)});
          if (leavesFunction(Then))
            for (TSNode With = ts_node_parent(Block); is(With, "with_statement");
                 With = ts_node_parent(Block)) {
              Block = ts_node_parent(With);
              Ctx.Guarded.push_back({endOf(With), endOf(Block)});
            }
        }
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
  for (const auto &[B, E] : Guarded)
    if (B <= Offset && Offset < E)
      return CaptureContext::Guarded;
  if (const PyRegion *R = regionAt(Offset)) {
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
  if (Site.Context == CaptureContext::Outside || Site.Context == CaptureContext::Guarded)
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
  if (!runsUnderModes(Site.When, N))
    return;
  Site.EnvGate = envGateAt(N);
  Out.Sites.push_back(std::move(Site));
}

void PyFunctionContext::reportCheck(const std::string &Check, TSNode N, const std::string &Message,
                                    std::vector<Note> Notes, bool Always) {
  SourceLoc RegionBegin;
  CaptureContext Context = contextAt(beginOf(N), &RegionBegin);
  if (Always) {
    Context = CaptureContext::InRegion;
    RegionBegin = {};
  } else if (Context == CaptureContext::Outside || Context == CaptureContext::Guarded) {
    return;
  }
  reportCheckIn(Check, N, Message, std::move(Notes), Context, RegionBegin);
}

void PyFunctionContext::reportCheckIn(const std::string &Check, TSNode N,
                                      const std::string &Message, std::vector<Note> Notes,
                                      CaptureContext Context, SourceLoc RegionBegin) {
  auto It = CheckRules.find(Check);
  if (It == CheckRules.end())
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
  if (!runsUnderModes(Site.When, N))
    return;
  Site.EnvGate = envGateAt(N);
  Out.Sites.push_back(std::move(Site));
}

} // namespace graphsafe::lint::py
