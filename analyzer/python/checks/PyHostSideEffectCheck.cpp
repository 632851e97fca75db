#include "../PyCallGraph.h"
#include "PyCheck.h"

#include <fmt/format.h>

#include <map>

namespace graphsafe::lint::py {

namespace {

const std::set<std::string, std::less<>> ContainerMutators = {
    "append",  "extend",     "insert", "add",        "update", "pop",
    "popleft", "appendleft", "clear",  "setdefault", "remove", "discard"};

// Whether every function Call may run is a project function whose every
// return gives a tensor or a list of them (a scheduler's `get_lr()` computing
// `torch.where(...)` on device): such a learning rate is no host value.
bool returnsTensors(const PyTypes &T, TSNode Call) {
  Callees Cs = calleesOf(T, Call);
  if (Cs.Keys.empty())
    return false;
  for (const auto &K : Cs.Keys) {
    if (!isProjectFunctionKey(T.P, K))
      return false;
    const std::string Q = K.substr(3);
    const PyFunctionDef *F = T.P.function(Q);
    const PyModuleInfo *M = F ? T.P.moduleOfFunction(Q) : nullptr;
    if (!F || !M || F->IsModuleBody)
      return false;
    PyTypes Callee(T.P, *M, *F, T.cache());
    bool Any = false, All = true;
    walk(F->body(), [&](TSNode N) {
      if (is(N, "function_definition") || is(N, "lambda") || !All)
        return false;
      if (!is(N, "return_statement"))
        return true;
      TSNode V = unparen(ts_node_named_child(N, 0));
      std::vector<TSNode> Parts = {V};
      if (is(V, "list_comprehension"))
        Parts = {field(V, "body")};
      else if (is(V, "list") || is(V, "tuple"))
        Parts = namedChildren(V);
      Any = true;
      for (TSNode Part : Parts)
        All &= !ts_node_is_null(Part) && Callee.valueOf(Part).tensor();
      return false;
    });
    if (!Any || !All)
      return false;
  }
  return true;
}

// An object the captured code itself makes, in this function, before At: a
// local bound (once) to a project class's constructor inside the capture
// (`out = ForwardBatchOutput()`). Filling its attributes builds what the
// capture hands back; no replay has to repeat it.
// Its constructor must set the attribute changed (`self.logits = []`): a
// class-level list is shared by every instance, made before the capture.
bool madeInCapture(const PyFunctionContext &Ctx, TSNode Root, std::string_view Attr, TSNode At) {
  const PyTypes &T = Ctx.T;
  std::string_view Name = Ctx.S.text(Root);
  TSNode Bound = unparen(T.onlyBoundExpr(Name, beginOf(At)));
  if (!is(Bound, "call") || !Ctx.inCapture(beginOf(Bound)))
    return false;
  std::string Init = T.P.methodOf(T.resolve(field(Bound, "function")), "__init__");
  const PyFunctionDef *F = Init.empty() ? nullptr : T.P.function(Init);
  const PyModuleInfo *M = F ? T.P.moduleOfFunction(Init) : nullptr;
  if (!F || !M)
    return false;
  std::string_view Self = selfNameOf(*M->Src, F->Node);
  bool Sets = false;
  walk(F->body(), [&](TSNode N) {
    if (is(N, "assignment")) {
      TSNode L = unparen(field(N, "left"));
      Sets |= is(L, "attribute") && M->Src->text(field(L, "object")) == Self &&
              M->Src->text(field(L, "attribute")) == Attr;
    }
    return !Sets;
  });
  return Sets;
}

// The name a chain of attributes and subscripts hangs off (`a` of
// `a.b[0].c`), and in FirstAttr the attribute read first from it (`b`).
TSNode storageRoot(TSNode E, TSNode *FirstAttr = nullptr) {
  TSNode Root = unparen(E);
  while (is(Root, "attribute") || is(Root, "subscript")) {
    if (FirstAttr && is(Root, "attribute"))
      *FirstAttr = field(Root, "attribute");
    Root = unparen(field(Root, is(Root, "attribute") ? "object" : "value"));
  }
  return Root;
}

// State that outlives the call: an attribute, or a name declared global or
// nonlocal. Locals die with the frame, so changing them is harmless, and so
// are the attributes of an object made in the capture (madeInCapture).
bool outlivesCall(const PyFunctionContext &Ctx, TSNode Target,
                  const std::set<std::string> &Globals) {
  Target = unparen(Target);
  if (is(Target, "attribute")) {
    TSNode First{};
    TSNode Root = storageRoot(Target, &First);
    return !is(Root, "identifier") || Ctx.T.isSelf(Root) ||
           Ctx.T.parameterAt(Ctx.S.text(Root), beginOf(Root)) >= 0 ||
           !madeInCapture(Ctx, Root, Ctx.S.text(First), Target);
  }
  if (is(Target, "subscript"))
    return outlivesCall(Ctx, field(Target, "value"), Globals);
  // At the top level of a module every name is a global.
  return is(Target, "identifier") &&
         (Ctx.T.F.IsModuleBody || Globals.count(std::string(Ctx.S.text(Target))));
}

class PyHostSideEffectCheck : public PyCheck {
public:
  void run(PyFunctionContext &Ctx) override {
    const PySource &S = Ctx.S;
    const PyTypes &T = Ctx.T;
    std::set<std::string> Globals, Nonlocals;
    // Containers captured code makes afresh (`self.bufs = []`): filling one is
    // building it, as capture code does to hold its static buffers, not a
    // change replays would have to repeat. One made before the capture began
    // is state the capture changes.
    std::map<std::string, unsigned> Fresh;
    walk(Ctx.body(), [&](TSNode N) {
      if (is(N, "global_statement") || is(N, "nonlocal_statement"))
        for (TSNode C : namedChildren(N)) {
          Globals.insert(std::string(S.text(C)));
          if (is(N, "nonlocal_statement"))
            Nonlocals.insert(std::string(S.text(C)));
        }
      if (is(N, "assignment") && isFreshContainer(T, field(N, "right")) &&
          Ctx.inCapture(beginOf(N)))
        Fresh.emplace(std::string(S.text(field(N, "left"))), endOf(N));
      return true;
    });
    auto madeHere = [&](TSNode Container, TSNode At) {
      auto It = Fresh.find(std::string(S.text(Container)));
      return It != Fresh.end() && It->second <= beginOf(At);
    };
    // A `nonlocal` lives in the frame of the function defining this closure:
    // where that whole call runs inside the capture, changing it changes
    // nothing that outlives the capture (closureFrameKey).
    auto frameTests = [&](TSNode Target) -> std::vector<ParamTest> {
      TSNode Root = storageRoot(Target);
      if (!is(Root, "identifier") || !Nonlocals.count(std::string(S.text(Root))))
        return {};
      const PyTypes *Scope = T.nonlocalScope(S.text(Root));
      if (!Scope)
        return {};
      return {ParamTest{0, ParamTest::Kind::Falsy, closureFrameKey(Scope->F.QualName)}};
    };
    auto stateChanged = [&](TSNode At, TSNode Target) {
      Ctx.reportCheck("host-state-mutation", At,
                      fmt::format("'{}' is host state changed in captured code: the change "
                                  "happens once, at capture, and replays never repeat it",
                                  S.text(Target)),
                      {}, false, frameTests(Target));
    };
    auto learningRateRead = [&](TSNode At, std::string_view What) {
      Ctx.reportCheck("host-scalar-read", At,
                      fmt::format("'{}' reads the learning rate on the host: the graph bakes in "
                                  "its value at capture, later changes never reach replays",
                                  What));
    };
    walk(Ctx.body(), [&](TSNode N) {
      auto K = kind(N);
      if (!Ctx.inCapture(beginOf(N)))
        return true;
      if (K == "augmented_assignment") {
        TSNode L = field(N, "left");
        Value Old = T.valueOf(L);
        // `self.total += loss` on a tensor is an in-place GPU op: captured.
        if (outlivesCall(Ctx, L, Globals) && !Old.tensor() && Old.K != VK::Instance &&
            !(Old.K == VK::Unknown && mayBeTensor(T, field(N, "right"))))
          stateChanged(N, L);
      } else if (K == "assignment") {
        // self.step = self.step + 1
        TSNode L = field(N, "left"), R = field(N, "right");
        if (!ts_node_is_null(R) && outlivesCall(Ctx, L, Globals) && T.valueOf(L).K == VK::Host &&
            mentions(S, R, L))
          stateChanged(N, L);
      } else if (K == "call") {
        TSNode Fn = unparen(field(N, "function"));
        std::string_view Method = is(Fn, "attribute") ? S.text(field(Fn, "attribute")) : "";
        if (ContainerMutators.count(Method) && outlivesCall(Ctx, field(Fn, "object"), Globals) &&
            !mayBeTensorOrModule(T, field(Fn, "object")) && !opsNamespace(T, field(Fn, "object")) &&
            !madeHere(field(Fn, "object"), N))
          Ctx.reportCheck("host-state-mutation", N,
                          fmt::format("'{}' changes a host container in captured code: it "
                                      "happens once, at capture, and replays never repeat it",
                                      calleeText(S, N)),
                          {}, false, frameTests(field(Fn, "object")));
        else if (S.text(Fn) == "print" && T.resolve(Fn) == "print" && !onFailurePath(N))
          printCall(Ctx, N);
        else if ((Method == "get_last_lr" || Method == "get_lr") && !returnsTensors(T, N))
          learningRateRead(N, calleeText(S, N) + "()");
      } else if (K == "subscript") {
        // optimizer.param_groups[0]["lr"]
        TSNode Idx = field(N, "subscript");
        std::string_view V = S.text(field(N, "value"));
        if (is(Idx, "string") && (S.text(Idx) == "\"lr\"" || S.text(Idx) == "'lr'") &&
            V.find("param_groups") != std::string_view::npos && !isStoreTarget(N) &&
            !T.P.tensorLearningRates(T.M))
          learningRateRead(N, S.text(N));
      } else if (K == "string" && hasTensorInterpolation(T, N) && !onFailurePath(N)) {
        Ctx.reportCheck("tensor-in-format", N,
                        "formatting a tensor into a string copies it to the host: a GPU sync, "
                        "illegal during CUDA graph capture");
        return false;
      }
      return true;
    });
  }

private:
  // Whether E reads Target itself (`self.step + 1` reads self.step).
  static bool mentions(const PySource &S, TSNode E, TSNode Target) {
    bool Found = false;
    walk(E, [&](TSNode N) {
      Found |= kind(N) == kind(Target) && S.text(N) == S.text(Target);
      return !Found;
    });
    return Found;
  }

  static bool isFreshContainer(const PyTypes &T, TSNode E) {
    E = unparen(E);
    if (is(E, "list") || is(E, "dictionary") || is(E, "set") || is(E, "list_comprehension") ||
        is(E, "dictionary_comprehension"))
      return true;
    if (!is(E, "call"))
      return false;
    std::string Q = T.resolve(field(E, "function"));
    return Q == "list" || Q == "dict" || Q == "set" || Q == "collections.deque" ||
           Q == "collections.defaultdict" || Q == "collections.OrderedDict";
  }

  // `step += 1 if not capturable else found_inf.to(int)`: a target that
  // takes a tensor on some path may be one, updated in place on the device.
  static bool mayBeTensor(const PyTypes &T, TSNode E) {
    E = unparen(E);
    if (is(E, "conditional_expression") && ts_node_named_child_count(E) == 3)
      return mayBeTensor(T, ts_node_named_child(E, 0)) || mayBeTensor(T, ts_node_named_child(E, 2));
    return T.valueOf(E).tensor();
  }

  static bool mayBeTensorOrModule(const PyTypes &T, TSNode E) {
    Value V = T.valueOf(E);
    return V.tensor() || V.K == VK::Instance;
  }

  // `torch.ops.my_lib.add(a, b)`, `operator.add(a, b)`: a function of a
  // namespace of operators, not a container's method.
  static bool opsNamespace(const PyTypes &T, TSNode E) {
    std::string Q = T.resolve(E);
    return Q == "torch" || startsWith(Q, "torch.") || Q == "operator";
  }

  static bool isStoreTarget(TSNode N) {
    TSNode P = parentOf(N);
    return is(P, "assignment") && ts_node_eq(field(P, "left"), N);
  }

  // `x.cpu()`, `x.to("cpu")`: a copy to the host, reported as such where it
  // is made (sync-device-to-host-copy). Printing or formatting its result
  // reads host memory: one sync, one finding.
  static bool copiedToHost(const PySource &S, TSNode E) {
    E = unparen(E);
    TSNode Fn = unparen(field(E, "function"));
    if (!is(E, "call") || !is(Fn, "attribute"))
      return false;
    std::string_view Method = S.text(field(Fn, "attribute"));
    if (Method == "cpu")
      return true;
    return Method == "to" && deviceNamed(S, argsOf(S, E), "cpu");
  }

  // A tensor still on the device, interpolated into Str.
  static bool hasTensorInterpolation(const PyTypes &T, TSNode Str) {
    for (TSNode C : namedChildren(Str))
      if (TSNode E = field(C, "expression");
          is(C, "interpolation") && T.valueOf(E).tensor() && !copiedToHost(*T.M.Src, E))
        return true;
    return false;
  }

  void printCall(PyFunctionContext &Ctx, TSNode Call) {
    CallArgs A = argsOf(Ctx.S, Call);
    for (TSNode P : A.Positional)
      if (Ctx.T.valueOf(P).tensor() && !copiedToHost(Ctx.S, P)) {
        Ctx.reportCheck("tensor-in-format", Call,
                        fmt::format("'print' of tensor '{}' copies it to the host: a GPU sync, "
                                    "illegal during CUDA graph capture",
                                    Ctx.S.text(P)));
        return;
      }
    Ctx.reportCheck("host-output", Call,
                    "'print' in captured code runs once, at capture; replays print nothing");
  }
};

} // namespace

std::unique_ptr<PyCheck> makePyHostSideEffectCheck() {
  return std::make_unique<PyHostSideEffectCheck>();
}

} // namespace graphsafe::lint::py
