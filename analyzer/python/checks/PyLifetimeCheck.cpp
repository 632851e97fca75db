#include "PyCheck.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace graphsafe::lint::py {

namespace {

// Methods whose result shares the receiver's memory.
const std::set<std::string, std::less<>> ViewMethods = {
    "view",      "reshape",    "detach",  "squeeze",  "unsqueeze", "flatten",
    "t",         "transpose",  "permute", "narrow",   "select",    "expand",
    "view_as",   "as_strided", "chunk",   "split",    "unbind",    "contiguous",
    "expand_as", "unflatten",  "movedim", "swapaxes", "diagonal"};

// The expression whose memory E shares: E with its subscripts and view-method
// calls taken off (`out[0].view(-1)` -> `out`). A call IsSource accepts is
// where the memory comes from, and the walk stops there.
TSNode sharedMemoryOf(const PySource &S, TSNode E,
                      const std::function<bool(TSNode)> &IsSource = nullptr) {
  for (E = unparen(E);;) {
    if (is(E, "subscript")) {
      E = unparen(field(E, "value"));
      continue;
    }
    if (!is(E, "call") || (IsSource && IsSource(E)))
      return E;
    TSNode Fn = field(E, "function");
    if (!is(Fn, "attribute") || !ViewMethods.count(S.text(field(Fn, "attribute"))))
      return E;
    E = unparen(field(Fn, "object"));
  }
}

// A view of the tensor Name itself (`x.view(...)`, `x.transpose(0, 1)`,
// `x[:n]`): it shares the storage the graph reads, and holds it. Not
// `contiguous()`, which shares only when no copy was needed.
bool viewOfItself(const PySource &S, TSNode E, std::string_view Name) {
  TSNode Shared = sharedMemoryOf(S, E, [&](TSNode Call) {
    TSNode Fn = field(Call, "function");
    return is(Fn, "attribute") && S.text(field(Fn, "attribute")) == "contiguous";
  });
  return is(Shared, "identifier") && S.text(Shared) == Name;
}

// The mistakes a reader can see in the code that replays a graph captured in
// this function: a static input rebound instead of copied into, or deleted;
// grads set to None between replays, an output kept across a later replay, a
// Python number the graph baked in changed between replays.
class PyLifetimeCheck : public PyCheck {
public:
  explicit PyLifetimeCheck(const CaptureSpec &Spec) : Spec(Spec) {}

  void run(PyFunctionContext &Ctx) override {
    for (const auto &R : Ctx.Regions)
      checkRegion(Ctx, R);
    checkGraphedCallOutputs(Ctx);
  }

private:
  const CaptureSpec &Spec;

  struct Facts {
    std::vector<unsigned> Replays;
    std::vector<TSNode> Loops; // loops after the region that replay
  };

  bool isReplay(const PyFunctionContext &Ctx, const PyRegion &R, TSNode Call) const {
    std::string_view Graph = replayedGraph(Ctx.S, Spec, Call);
    return !Graph.empty() && (R.Graph.empty() || Graph == R.Graph);
  }

  // Whether a change at Offset reaches a later replay: one follows it, or it
  // sits in a loop that replays.
  static bool replayedAfter(const Facts &F, TSNode At) {
    for (unsigned Rp : F.Replays)
      if (Rp > beginOf(At))
        return true;
    for (TSNode L : F.Loops)
      if (contains(L, At))
        return true;
    return false;
  }

  void checkRegion(PyFunctionContext &Ctx, const PyRegion &R) {
    const PySource &S = Ctx.S;
    const PyTypes &T = Ctx.T;
    Facts F;
    std::map<std::string, Value> Inputs; // read in the region, bound before it
    const std::set<std::string> BoundBefore = namesBoundBefore(T, R.Begin);
    std::set<std::string> Outputs;
    std::set<std::string> Used; // names and attributes the region reads
    bool Backward = false;
    unsigned CaptureLine = R.BeginLoc.Line;
    walk(Ctx.body(), [&](TSNode N) {
      unsigned At = beginOf(N);
      bool In = At >= R.Begin && At < R.End;
      if (is(N, "call")) {
        if (In) {
          TSNode Fn = field(N, "function");
          if ((is(Fn, "attribute") && S.text(field(Fn, "attribute")) == "backward") ||
              T.resolve(Fn) == "torch.autograd.backward")
            Backward = true;
        } else if (At >= R.End && isReplay(Ctx, R, N)) {
          F.Replays.push_back(At);
        }
      } else if (In && is(N, "identifier") && isRead(N)) {
        std::string Name(S.text(N));
        if (BoundBefore.count(Name))
          Inputs.emplace(Name, T.nameAt(Name, R.Begin));
      } else if (In && is(N, "assignment")) {
        collectNames(S, field(N, "left"), Outputs);
      }
      if (In && (is(N, "identifier") || is(N, "attribute")))
        Used.insert(std::string(S.text(N)));
      return true;
    });
    if (F.Replays.empty())
      return;
    walk(Ctx.body(), [&](TSNode N) {
      if (isLoop(N) && beginOf(N) >= R.End)
        for (unsigned Rp : F.Replays)
          if (Rp >= beginOf(N) && Rp < endOf(N)) {
            F.Loops.push_back(N);
            break;
          }
      return true;
    });
    for (const auto &O : Outputs)
      Inputs.erase(O);

    walk(Ctx.body(), [&](TSNode N) {
      if (beginOf(N) < R.End)
        return true;
      if (is(N, "assignment") || is(N, "augmented_assignment")) {
        TSNode L = unparen(field(N, "left"));
        std::string Name(S.text(L));
        auto In = Inputs.find(Name);
        if (is(L, "identifier") && In != Inputs.end() && replayedAfter(F, N)) {
          if (In->second.K == VK::Host)
            Ctx.reportCheck("scalar-changed-between-replays", N,
                            fmt::format("'{}' is a Python number the graph captured at line {} "
                                        "baked in: changing it here does not reach replays",
                                        Name, CaptureLine),
                            {{"the capture region begins here", R.BeginLoc}}, true);
          else if (is(N, "assignment") && !viewOfItself(S, field(N, "right"), Name))
            // `x += 1` on a tensor is in place; `x = x.view(...)` keeps the
            // memory the graph reads alive and shared: both fine.
            Ctx.reportCheck(
                "static-input-rebound", N,
                fmt::format("'{0}' is a static input of the graph captured at line {1}; "
                            "rebinding it does not change what replays read: they keep using "
                            "the old tensor's memory, freed once nothing else holds it. Copy "
                            "into it instead: {0}.copy_(...)",
                            Name, CaptureLine),
                {{"the capture region begins here", R.BeginLoc}}, true);
        }
        if (Backward && is(N, "assignment") && is(L, "attribute") &&
            S.text(field(L, "attribute")) == "grad" && S.text(field(N, "right")) == "None" &&
            replayedAfter(F, N))
          reportGradsFreed(Ctx, R, N, std::string(S.text(L)) + " = None");
      } else if (is(N, "delete_statement") && replayedAfter(F, N)) {
        std::set<std::string> Deleted;
        for (TSNode Target : namedChildren(N))
          collectNames(S, Target, Deleted);
        for (const auto &Name : Deleted)
          if (auto In = Inputs.find(Name); In != Inputs.end() && In->second.K != VK::Host)
            Ctx.reportCheck(
                "static-input-deleted", N,
                fmt::format("'{0}' is a static input of the graph captured at line {1}; "
                            "deleting it frees its memory once nothing else holds it, and "
                            "replays keep reading that memory, which the next allocation may "
                            "reuse. Keep '{0}' alive while the graph replays and copy new data "
                            "into it: {0}.copy_(...)",
                            Name, CaptureLine),
                {{"the capture region begins here", R.BeginLoc}}, true);
      } else if (is(N, "call") && replayedAfter(F, N)) {
        checkStateSwap(Ctx, R, N, Inputs, Used);
        checkSchedulerStep(Ctx, R, N, Used);
      }
      if (is(N, "assignment") || is(N, "augmented_assignment"))
        if (replayedAfter(F, N))
          checkLrWrite(Ctx, R, N, Used);
      if (Backward && is(N, "call")) {
        TSNode Fn = field(N, "function");
        if (is(Fn, "attribute") && S.text(field(Fn, "attribute")) == "zero_grad" &&
            replayedAfter(F, N)) {
          CallArgs A = argsOf(S, N);
          TSNode Keep = A.keyword("set_to_none");
          if (!A.Positional.empty())
            Keep = A.Positional[0];
          if (ts_node_is_null(Keep) || S.text(Keep) != "False")
            reportGradsFreed(Ctx, R, N, calleeText(S, N) + "()");
        }
      }
      return true;
    });
    checkOutputAliases(Ctx, R, F, Outputs);
  }

  // State the graph holds pointers into, swapped for new memory after capture:
  // a static input resized (`resize_` to a bigger batch reallocates) or given
  // another storage (`set_`), a module's parameters replaced
  // (`load_state_dict(..., assign=True)`), an optimizer's state tensors
  // replaced (`optimizer.load_state_dict`). Replays keep the old pointers.
  static void checkStateSwap(PyFunctionContext &Ctx, const PyRegion &R, TSNode Call,
                             const std::map<std::string, Value> &Inputs,
                             const std::set<std::string> &Used) {
    const PySource &S = Ctx.S;
    TSNode Fn = field(Call, "function");
    if (!is(Fn, "attribute"))
      return;
    std::string Method(S.text(field(Fn, "attribute")));
    std::string Recv(S.text(field(Fn, "object")));
    std::string Msg;
    if (Method == "resize_" || Method == "set_" || Method == "resize_as_") {
      auto In = Inputs.find(Recv);
      if (In == Inputs.end() || In->second.K == VK::Host)
        return;
      Msg = fmt::format("'{0}' is a static input of the graph captured at line {1}; {0}.{2}() "
                        "may move it to new memory, and replays keep reading the old memory. "
                        "Capture a graph per shape, or copy into a slice of a buffer allocated "
                        "at the largest size",
                        Recv, R.BeginLoc.Line, Method);
    } else if (Method == "load_state_dict" && Used.count(Recv)) {
      CallArgs A = argsOf(S, Call);
      TSNode Assign = A.keyword("assign");
      Value V = Ctx.T.valueOf(field(Fn, "object"));
      bool Optimizer = V.K == VK::Optimizer || V.K == VK::UncapturableOptimizer;
      if (Optimizer)
        Msg = fmt::format("'{0}.load_state_dict()' replaces the optimizer's state tensors "
                          "(exp_avg, step, ...) that the graph captured at line {1} updates: "
                          "replays keep updating the old ones, and the loaded state is never "
                          "used. Load the state before capture, or copy it into the existing "
                          "tensors (state[p][k].copy_(...))",
                          Recv, R.BeginLoc.Line);
      else if (!ts_node_is_null(Assign) && S.text(Assign) == "True")
        Msg = fmt::format("'{0}.load_state_dict(..., assign=True)' swaps in new parameter "
                          "tensors; the graph captured at line {1} keeps reading the old ones. "
                          "Load without assign=True (it copies into the existing parameters)",
                          Recv, R.BeginLoc.Line);
    }
    if (!Msg.empty())
      Ctx.reportCheck("state-replaced-after-capture", Call, Msg,
                      {{"the capture region begins here", R.BeginLoc}}, true);
  }

  // The optimizer an expression names, when the region steps it and its
  // learning rate is a Python number (not `lr=torch.tensor(...)`): what the
  // captured step baked in.
  static bool floatLrOptimizer(const PyFunctionContext &Ctx, TSNode Opt, unsigned At,
                               const std::set<std::string> &Used) {
    const PySource &S = Ctx.S;
    Opt = unparen(Opt);
    if (!is(Opt, "identifier") || !Used.count(std::string(S.text(Opt))))
      return false;
    Value V = Ctx.T.valueOf(Opt);
    if (V.K != VK::Optimizer && V.K != VK::UncapturableOptimizer)
      return false;
    TSNode Made = Ctx.T.boundExpr(S.text(Opt), At);
    if (ts_node_is_null(Made) || !is(Made, "call"))
      return false;
    TSNode Lr = argsOf(S, Made).keyword("lr");
    return ts_node_is_null(Lr) || Ctx.T.valueOf(Lr).K == VK::Host;
  }

  static void reportLr(PyFunctionContext &Ctx, const PyRegion &R, TSNode N, const std::string &What,
                       const std::string &Opt) {
    Ctx.reportCheck(
        "scalar-changed-between-replays", N,
        fmt::format("{} changes the learning rate of '{}', whose step the graph captured at line "
                    "{} with the rate as a Python number baked in: replays keep the old rate. "
                    "Give the optimizer a tensor rate (lr=torch.tensor(0.01, device='cuda') with "
                    "capturable=True) and update it in place",
                    What, Opt, R.BeginLoc.Line),
        {{"the capture region begins here", R.BeginLoc}}, true);
  }

  // `scheduler.step()` on an LR scheduler made from the captured optimizer.
  static void checkSchedulerStep(PyFunctionContext &Ctx, const PyRegion &R, TSNode Call,
                                 const std::set<std::string> &Used) {
    const PySource &S = Ctx.S;
    TSNode Fn = field(Call, "function");
    if (!is(Fn, "attribute") || S.text(field(Fn, "attribute")) != "step")
      return;
    TSNode Recv = unparen(field(Fn, "object"));
    if (!is(Recv, "identifier"))
      return;
    TSNode Made = Ctx.T.boundExpr(S.text(Recv), beginOf(Call));
    if (ts_node_is_null(Made) || !is(Made, "call") ||
        !startsWith(Ctx.T.resolve(field(Made, "function")), "torch.optim.lr_scheduler."))
      return;
    CallArgs A = argsOf(S, Made);
    TSNode Opt = !A.Positional.empty() ? A.Positional[0] : A.keyword("optimizer");
    if (!ts_node_is_null(Opt) && floatLrOptimizer(Ctx, Opt, beginOf(Call), Used))
      reportLr(Ctx, R, Call, "'" + calleeText(S, Call) + "()'", std::string(S.text(Opt)));
  }

  // `group['lr'] = x` for a group of the captured optimizer's param_groups.
  static void checkLrWrite(PyFunctionContext &Ctx, const PyRegion &R, TSNode Assign,
                           const std::set<std::string> &Used) {
    const PySource &S = Ctx.S;
    TSNode L = unparen(field(Assign, "left"));
    if (!is(L, "subscript"))
      return;
    std::string_view Key = S.text(field(L, "subscript"));
    if (Key != "'lr'" && Key != "\"lr\"")
      return;
    TSNode Group = unparen(field(L, "value"));
    // opt.param_groups[0]['lr'], or a loop variable over opt.param_groups.
    TSNode Groups{};
    if (is(Group, "subscript"))
      Groups = unparen(field(Group, "value"));
    for (TSNode P = parentOf(Assign); ts_node_is_null(Groups) && !ts_node_is_null(P);
         P = parentOf(P))
      if (is(P, "for_statement") && S.text(field(P, "left")) == S.text(Group))
        Groups = unparen(field(P, "right"));
    if (ts_node_is_null(Groups) || !is(Groups, "attribute") ||
        S.text(field(Groups, "attribute")) != "param_groups")
      return;
    TSNode Opt = field(Groups, "object");
    if (floatLrOptimizer(Ctx, Opt, beginOf(Assign), Used))
      reportLr(Ctx, R, Assign, "this assignment", std::string(S.text(Opt)));
  }

  static void reportGradsFreed(PyFunctionContext &Ctx, const PyRegion &R, TSNode N,
                               const std::string &What) {
    Ctx.reportCheck("grads-set-to-none", N,
                    fmt::format("'{}' sets .grad to None between replays of the graph captured at "
                                "line {}, whose backward writes the grads: replays keep writing "
                                "the old (freed) grad memory and the optimizer sees None. Use "
                                "zero_grad(set_to_none=False), or do not clear grads between "
                                "replays (the captured backward rewrites them)",
                                What, R.BeginLoc.Line),
                    {{"the capture region begins here", R.BeginLoc}}, true);
  }

  // Aliases of an output taken after one replay and read after the next.
  void checkOutputAliases(PyFunctionContext &Ctx, const PyRegion &R, const Facts &F,
                          const std::set<std::string> &Outputs) {
    if (Outputs.empty())
      return;
    const PySource &S = Ctx.S;
    std::map<std::string, unsigned> AliasEpoch;
    std::set<std::string> Reported;
    unsigned Epoch = 0;
    auto aliasOf = [&](TSNode E) -> bool {
      E = sharedMemoryOf(S, E);
      return is(E, "identifier") &&
             (Outputs.count(std::string(S.text(E))) || AliasEpoch.count(std::string(S.text(E))));
    };
    std::function<void(TSNode)> Visit = [&](TSNode N) {
      if (beginOf(N) < R.End && !contains(N, R.Opener) && endOf(N) <= R.End)
        return;
      if (isScope(N) && !ts_node_eq(N, Ctx.body()))
        return;
      if (isLoop(N) &&
          std::any_of(F.Loops.begin(), F.Loops.end(), [&](TSNode L) { return ts_node_eq(L, N); })) {
        TSNode Body = field(N, "body");
        Visit(Body);
        Visit(Body); // the next iteration sees this one's aliases
        return;
      }
      if (is(N, "call") && isReplay(Ctx, R, N)) {
        ++Epoch;
        return;
      }
      if (is(N, "assignment")) {
        TSNode L = unparen(field(N, "left")), Rt = field(N, "right");
        if (!ts_node_is_null(Rt))
          Visit(Rt);
        if (is(L, "identifier") && !Outputs.count(std::string(S.text(L)))) {
          std::string Name(S.text(L));
          if (!ts_node_is_null(Rt) && aliasOf(Rt))
            AliasEpoch[Name] = Epoch;
          else
            AliasEpoch.erase(Name);
        }
        return;
      }
      if (is(N, "call")) {
        TSNode Fn = field(N, "function");
        if (is(Fn, "attribute") && S.text(field(Fn, "attribute")) == "append") {
          CallArgs A = argsOf(S, N);
          bool InLoop =
              std::any_of(F.Loops.begin(), F.Loops.end(), [&](TSNode L) { return contains(L, N); });
          if (InLoop && A.Positional.size() == 1 && aliasOf(A.Positional[0]) &&
              Reported.insert("append@" + std::to_string(beginOf(N))).second)
            Ctx.reportCheck("output-read-after-replay", N,
                            fmt::format("'{}' keeps the graph's output buffer itself, not its "
                                        "value: the next replay overwrites it, so every entry "
                                        "ends up holding the last replay's result. Append "
                                        "{}.clone() (or .item())",
                                        calleeText(S, N), S.text(A.Positional[0])),
                            {{"the capture region begins here", R.BeginLoc}}, true);
        }
      }
      if (is(N, "identifier") && isRead(N)) {
        std::string Name(S.text(N));
        auto It = AliasEpoch.find(Name);
        if (It != AliasEpoch.end() && It->second < Epoch && Reported.insert(Name).second)
          Ctx.reportCheck("output-read-after-replay", N,
                          fmt::format("'{}' aliases an output of the graph captured at line {}, "
                                      "and a later replay has overwritten it: this reads the new "
                                      "replay's values. Keep a copy: .clone() it before replaying",
                                      Name, R.BeginLoc.Line),
                          {{"the capture region begins here", R.BeginLoc}}, true);
        return;
      }
      for (TSNode C : namedChildren(N))
        Visit(C);
    };
    Visit(Ctx.body());
  }

  // A callable that make_graphed_callables returned replays its forward graph
  // into the same output buffers at every call (it hands out detached views
  // of them), so an output kept from one call and read after the next holds
  // the later call's values.
  void checkGraphedCallOutputs(PyFunctionContext &Ctx) {
    const PySource &S = Ctx.S;
    std::map<std::string, unsigned> MadeAt = graphedCallables(Ctx);
    if (MadeAt.empty())
      return;
    std::map<std::string, unsigned> Calls; // graphed callable -> calls seen so far
    struct Output {
      std::string Callable;
      unsigned Call;
    };
    std::map<std::string, Output> Kept; // name -> the call whose output it aliases
    std::set<std::string> Reported;
    // The call of a graphed callable whose output E aliases, if any.
    // The graphed callable a call calls, or MadeAt.end().
    auto graphedCall = [&](TSNode Call) {
      return MadeAt.find(std::string(S.text(field(Call, "function"))));
    };
    auto outputOf = [&](TSNode E) -> std::optional<Output> {
      E = sharedMemoryOf(S, E, [&](TSNode Call) { return graphedCall(Call) != MadeAt.end(); });
      if (is(E, "identifier")) {
        auto It = Kept.find(std::string(S.text(E)));
        return It == Kept.end() ? std::nullopt : std::optional<Output>(It->second);
      }
      if (auto It = is(E, "call") ? graphedCall(E) : MadeAt.end(); It != MadeAt.end())
        return Output{It->first, Calls[It->first]};
      return std::nullopt;
    };
    std::function<void(TSNode)> Visit = [&](TSNode N) {
      if (isScope(N) && !ts_node_eq(N, Ctx.body()))
        return;
      if (isLoop(N)) {
        TSNode Body = field(N, "body");
        Visit(Body);
        Visit(Body); // the next iteration sees what this one kept
        return;
      }
      if (is(N, "assignment")) {
        TSNode L = unparen(field(N, "left")), Rt = field(N, "right");
        if (ts_node_is_null(Rt))
          return;
        Visit(Rt);
        std::optional<Output> Out = outputOf(Rt);
        std::set<std::string> Names;
        collectNames(S, L, Names);
        for (const auto &Name : Names)
          if (Out)
            Kept[Name] = *Out;
          else
            Kept.erase(Name);
        return;
      }
      if (is(N, "call"))
        if (auto It = graphedCall(N); It != MadeAt.end()) {
          for (TSNode C : namedChildren(N))
            Visit(C); // the arguments are read before the call replays
          ++Calls[It->first];
          return;
        }
      if (is(N, "identifier") && isRead(N)) {
        std::string Name(S.text(N));
        auto It = Kept.find(Name);
        // `prev is not None` asks about the name, not the memory.
        TSNode P = parentOf(N);
        std::vector<TSNode> Operands =
            is(P, "comparison_operator") ? namedChildren(P) : std::vector<TSNode>{};
        bool NoneTest =
            std::any_of(Operands.begin(), Operands.end(), [](TSNode C) { return is(C, "none"); });
        if (It != Kept.end() && !NoneTest && It->second.Call < Calls[It->second.Callable] &&
            Reported.insert(Name).second)
          Ctx.reportCheck(
              "output-read-after-replay", N,
              fmt::format("'{0}' holds an output of '{1}' (make_graphed_callables at line {2}), "
                          "and a later call of '{1}' has overwritten it: a graphed callable "
                          "replays into the same output memory at every call. Keep a copy: "
                          ".clone() it before calling '{1}' again",
                          Name, It->second.Callable, MadeAt[It->second.Callable]),
              {}, true);
        return;
      }
      for (TSNode C : namedChildren(N))
        Visit(C);
    };
    Visit(Ctx.body());
  }

  // The callables make_graphed_callables returned that this function can call,
  // with the line each was made at: names bound in it or at the module's top
  // level, and `self.` attributes set in any method of its class.
  std::map<std::string, unsigned> graphedCallables(const PyFunctionContext &Ctx) const {
    const PySource &S = Ctx.S;
    const PyTypes &T = Ctx.T;
    std::map<std::string, unsigned> Out;
    auto Module = std::find_if(T.M.Functions.begin(), T.M.Functions.end(),
                               [](const PyFunctionDef &F) { return F.IsModuleBody; });
    if (Module == T.M.Functions.end())
      return Out;
    // Most files never make one: a look at the text, once per module,
    // spares them the walk.
    auto [Named, New] = T.cache().NamesGraphedCallables.emplace(&T.M, false);
    if (New)
      Named->second = std::any_of(
          Spec.PyGraphedCallables.begin(), Spec.PyGraphedCallables.end(), [&](const HelperSpec &H) {
            return S.text(Module->Node).find(H.Name.substr(H.Name.rfind('.') + 1)) !=
                   std::string_view::npos;
          });
    if (!Named->second)
      return Out;
    for (const PyFunctionDef &F : T.M.Functions) {
      bool Here = ts_node_eq(F.Node, T.F.Node);
      bool SameClass = !F.ClassQName.empty() && F.ClassQName == T.F.ClassQName;
      if (!Here && !SameClass && !F.IsModuleBody)
        continue;
      walk(F.body(), [&](TSNode N) {
        TSNode Rt = is(N, "assignment") ? unparen(field(N, "right")) : TSNode{};
        if (ts_node_is_null(Rt) || !is(Rt, "call"))
          return true;
        std::string Q = T.resolve(field(Rt, "function"));
        if (std::none_of(Spec.PyGraphedCallables.begin(), Spec.PyGraphedCallables.end(),
                         [&](const HelperSpec &H) { return H.Name == Q && !H.CopiesOutputs; }))
          return true;
        TSNode L = unparen(field(N, "left"));
        std::set<std::string> Names;
        if (is(L, "attribute") && startsWith(S.text(L), "self.")) // self.step = make_graphed_...
          Names.insert(std::string(S.text(L)));
        else if (Here || F.IsModuleBody)
          collectNames(S, L, Names);
        for (const auto &Name : Names)
          Out[Name] = S.loc(N).Line;
        return true;
      });
    }
    return Out;
  }

  // The names of this function (or the module's top level) bound before
  // Offset, parameters included, imports and defs not.
  static std::set<std::string> namesBoundBefore(const PyTypes &T, unsigned Offset);

  static bool isRead(TSNode Id) {
    TSNode P = parentOf(Id);
    auto K = kind(P);
    if ((K == "assignment" || K == "augmented_assignment") && ts_node_eq(field(P, "left"), Id))
      return K == "augmented_assignment";
    if (K == "attribute" && ts_node_eq(field(P, "attribute"), Id))
      return false;
    if (K == "keyword_argument" && ts_node_eq(field(P, "name"), Id))
      return false;
    if (K == "call" && ts_node_eq(field(P, "function"), Id))
      return false;
    if (K == "pattern_list" || K == "tuple_pattern" || K == "parameters" ||
        K == "default_parameter" || K == "typed_parameter" || K == "global_statement" ||
        K == "nonlocal_statement" || K == "dotted_name" || K == "aliased_import" ||
        K == "function_definition" || K == "class_definition" || K == "for_statement" ||
        K == "for_in_clause" || K == "as_pattern_target" || K == "named_expression")
      return K == "for_statement" || K == "for_in_clause" ? !ts_node_eq(field(P, "left"), Id)
             : K == "named_expression"                    ? !ts_node_eq(field(P, "name"), Id)
                                                          : false;
    return true;
  }
};

std::set<std::string> PyLifetimeCheck::namesBoundBefore(const PyTypes &T, unsigned Offset) {
  const PySource &S = *T.M.Src;
  std::set<std::string> Out;
  walk(T.F.body(), [&](TSNode N) {
    if (beginOf(N) >= Offset)
      return false;
    if (is(N, "assignment"))
      collectNames(S, field(N, "left"), Out);
    return true;
  });
  if (!T.F.IsModuleBody)
    for (TSNode P : namedChildren(field(T.F.Node, "parameters")))
      if (TSNode Id = parameterName(P); !ts_node_is_null(Id))
        Out.insert(std::string(S.text(Id)));
  for (auto It = Out.begin(); It != Out.end();)
    It = T.M.Imports.count(*It) || T.M.Defs.count(*It) ? Out.erase(It) : std::next(It);
  return Out;
}

} // namespace

void collectNames(const PySource &S, TSNode Target, std::set<std::string> &Into) {
  Target = unparen(Target);
  if (is(Target, "identifier")) {
    Into.insert(std::string(S.text(Target)));
    return;
  }
  // expression_list: `del a, b`.
  if (is(Target, "pattern_list") || is(Target, "tuple_pattern") || is(Target, "list_pattern") ||
      is(Target, "tuple") || is(Target, "list") || is(Target, "expression_list"))
    for (TSNode C : namedChildren(Target))
      collectNames(S, C, Into);
}

std::unique_ptr<PyCheck> makePyLifetimeCheck(const CaptureSpec &Spec) {
  return std::make_unique<PyLifetimeCheck>(Spec);
}

} // namespace graphsafe::lint::py
