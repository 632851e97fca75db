#include "PyCheck.h"

#include "../PyHostTensors.h"

#include <fmt/format.h>

namespace graphsafe::lint::py {

namespace {

class PyControlFlowCheck : public PyCheck {
public:
  void run(PyFunctionContext &Ctx) override {
    const PySource &S = Ctx.S;
    const PyTypes &T = Ctx.T;
    walk(Ctx.body(), [&](TSNode N) {
      auto K = kind(N);
      if (!Ctx.inCapture(beginOf(N)))
        return true;
      TSNode Cond{};
      if (K == "if_statement" || K == "elif_clause" || K == "while_statement")
        Cond = field(N, "condition");
      else if (K == "conditional_expression" && ts_node_named_child_count(N) == 3)
        Cond = ts_node_named_child(N, 1);
      else if (K == "assert_statement")
        Cond = ts_node_named_child(N, 0);
      if (!ts_node_is_null(Cond))
        if (TSNode Tensor = tensorTruth(T, Cond); !ts_node_is_null(Tensor))
          Ctx.reportCheck("data-dependent-branch", Cond,
                          fmt::format("the branch tests tensor '{}' on the host: a GPU sync at "
                                      "capture, and replays always take the branch taken then",
                                      S.text(Tensor)));
      if (K == "subscript") {
        TSNode Idx = unparen(field(N, "subscript"));
        // `x[mask] = 0` with a host scalar is masked_fill: no nonzero, no sync.
        TSNode Up = parentOf(N);
        bool FillsScalar = is(Up, "assignment") && ts_node_eq(field(Up, "left"), N) &&
                           T.valueOf(field(Up, "right")).K == VK::Host;
        if (!FillsScalar && mayBeTensor(T, field(N, "value")) && T.valueOf(Idx).K == VK::BoolTensor)
          Ctx.reportCheck("boolean-mask-index", N,
                          fmt::format("indexing with boolean mask '{}' gives a data-dependent "
                                      "shape: the mask is read on the host, and a graph cannot "
                                      "replay a varying shape",
                                      S.text(Idx)));
      }
      return true;
    });
  }

private:
  // The tensor whose truth value a condition reads, if any: `if t:`,
  // `if not t`, `if a and t`, `if (x > 0).any():`.
  static TSNode tensorTruth(const PyTypes &T, TSNode Cond) {
    Cond = unparen(Cond);
    if (is(Cond, "not_operator"))
      return tensorTruth(T, field(Cond, "argument"));
    if (is(Cond, "boolean_operator")) {
      TSNode L = tensorTruth(T, field(Cond, "left"));
      return ts_node_is_null(L) ? tensorTruth(T, field(Cond, "right")) : L;
    }
    if (is(Cond, "named_expression"))
      return tensorTruth(T, field(Cond, "value"));
    // A test of a tensor the code copied to the host (`buf = x.cpu()`,
    // then `if buf[i] == 0:`) reads host memory: the copy is the sync.
    return T.valueOf(Cond).tensor() && !madeOnHost(T, Cond) ? Cond : TSNode{};
  }
};

} // namespace

std::unique_ptr<PyCheck> makePyControlFlowCheck() { return std::make_unique<PyControlFlowCheck>(); }

} // namespace graphsafe::lint::py
