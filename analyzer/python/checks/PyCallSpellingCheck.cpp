#include "PyCheck.h"

#include "../PyHostTensors.h"

namespace graphsafe::lint::py {

namespace {

bool receiverIs(const PyTypes &T, TSNode Recv, const std::string &On) {
  if (On == "any")
    return true;
  if (On == "tensor")
    return mayBeTensor(T, Recv) && !madeOnHost(T, Recv);
  Value V = T.valueOf(Recv);
  if (On == "stream")
    return V.K == VK::Stream;
  if (On == "event")
    return V.K == VK::Event;
  if (On == "generator")
    return V.K == VK::Generator || V.K == VK::CudaGenerator;
  if (On == "graph")
    return V.K == VK::Graph;
  if (On == "optimizer")
    return V.K == VK::Optimizer || V.K == VK::UncapturableOptimizer;
  if (On == "uncapturable-optimizer")
    return V.K == VK::UncapturableOptimizer;
  if (On == "logger")
    return V.K == VK::Logger || T.resolve(Recv) == "logging";
  return false;
}

class PyCallSpellingCheck : public PyCheck {
public:
  explicit PyCallSpellingCheck(const RuleSet &Rules) {
    for (const auto &R : Rules.Rules)
      for (const auto &C : R.Python.Match)
        if (C.K == MatchClause::Kind::Call || C.K == MatchClause::Kind::Method)
          for (const auto &N : C.Names)
            (C.K == MatchClause::Kind::Call ? Calls : Methods)[N].push_back({&R, &C});
  }

  void run(PyFunctionContext &Ctx) override {
    walk(Ctx.body(), [&](TSNode N) {
      if (!is(N, "call") || !Ctx.inCapture(beginOf(N)))
        return true;
      // `assert ok, idx.tolist()`, a log line before a raise: made only
      // where the capture fails anyway.
      if (onFailurePath(N))
        return false;
      const Rule *Best = bestRule(Ctx, N);
      if (!Best)
        return true;
      // `x.cpu().numpy()`, `x.cpu().tolist()`: the copy to the host is the
      // sync, said once at `.cpu()`; what follows runs on a host tensor.
      TSNode Fn = unparen(field(N, "function"));
      if (is(Fn, "attribute"))
        if (TSNode Recv = unparen(field(Fn, "object")); is(Recv, "call"))
          if (const Rule *Inner = bestRule(Ctx, Recv); Inner && copiesToHost(*Inner))
            return true;
      Ctx.report(*Best, N, calleeText(Ctx.S, N));
      return true;
    });
  }

private:
  using Entry = std::pair<const Rule *, const MatchClause *>;
  std::map<std::string, std::vector<Entry>> Calls, Methods;

  static bool copiesToHost(const Rule &R) { return R.Id == "sync-device-to-host-copy"; }

  // The most severe rule the call matches, if any.
  const Rule *bestRule(const PyFunctionContext &Ctx, TSNode N) const {
    const PySource &S = Ctx.S;
    const Rule *Best = nullptr;
    auto consider = [&](const std::vector<Entry> &Es, TSNode Recv) {
      for (const auto &[R, C] : Es)
        if ((ts_node_is_null(Recv) || receiverIs(Ctx.T, Recv, C->On)) &&
            conditionsHold(Ctx, N, *C) && (!Best || R->Level > Best->Level))
          Best = R;
    };
    TSNode Fn = unparen(field(N, "function"));
    std::string Q = Ctx.T.resolve(Fn);
    if (auto It = Calls.find(Q); !Q.empty() && It != Calls.end())
      consider(It->second, TSNode{});
    if (is(Fn, "attribute")) {
      std::string Method(S.text(field(Fn, "attribute")));
      if (auto It = Methods.find(Method); It != Methods.end())
        consider(It->second, field(Fn, "object"));
    }
    return Best;
  }

  static bool conditionsHold(const PyFunctionContext &Ctx, TSNode Call, const MatchClause &C) {
    const MatchConditions &W = C.When;
    if (W.empty())
      return true;
    CallArgs A = argsOf(Ctx.S, Call);
    if (W.ArgCount && A.Positional.size() + A.Keywords.size() != *W.ArgCount)
      return false;
    for (const auto &M : W.MissingArg)
      if (!ts_node_is_null(A.keyword(M)))
        return false;
    if (W.ArgDevice && !deviceNamed(Ctx.S, A, *W.ArgDevice))
      return false;
    if (W.TensorArg) {
      bool Any = false;
      for (TSNode P : A.Positional)
        Any |= Ctx.T.valueOf(P).tensor() && !madeOnHost(Ctx.T, P);
      if (!Any)
        return false;
    }
    if (!W.TensorArgAt.empty()) {
      bool Tensor = false;
      for (const auto &Where : W.TensorArgAt) {
        TSNode Arg = A.keyword(Where);
        if (ts_node_is_null(Arg) && !Where.empty() &&
            Where.find_first_not_of("0123456789") == std::string::npos &&
            std::stoul(Where) < A.Positional.size())
          Arg = A.Positional[std::stoul(Where)];
        Tensor |= !ts_node_is_null(Arg) && Ctx.T.valueOf(Arg).tensor() && !madeOnHost(Ctx.T, Arg);
      }
      if (!Tensor)
        return false;
    }
    for (const auto &Word : W.ArgMentions) {
      bool Found = false;
      for (TSNode P : A.Positional)
        Found |= Ctx.S.text(P).find(Word) != std::string_view::npos;
      for (const auto &[K, V] : A.Keywords)
        Found |= Ctx.S.text(V).find(Word) != std::string_view::npos;
      if (!Found)
        return false;
    }
    return true;
  }
};

} // namespace

std::unique_ptr<PyCheck> makePyCallSpellingCheck(const RuleSet &Rules) {
  return std::make_unique<PyCallSpellingCheck>(Rules);
}

bool deviceNamed(const PySource &S, const CallArgs &A, const std::string &Device) {
  auto Names = [&](TSNode N) {
    std::string_view Tx = S.text(N);
    return (is(N, "string") || is(N, "call") || is(N, "attribute")) &&
           Tx.find(Device) != std::string_view::npos;
  };
  if (TSNode D = A.keyword("device"); !ts_node_is_null(D))
    return Names(D);
  for (TSNode P : A.Positional)
    if (Names(P))
      return true;
  return false;
}

} // namespace graphsafe::lint::py
