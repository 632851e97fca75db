// A branch or loop whose condition reads device data is decided once, at
// capture; replays follow that path whatever the data says later.
#include "../AstUtil.h"
#include "Check.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <set>

namespace graphsafe::lint {

using namespace clang;

namespace {

const std::set<std::string> DeviceReads = {"item",       "_local_scalar_dense",
                                           "is_nonzero", "equal",
                                           "allclose",   "toCDouble",
                                           "toCFloat",   "toCLong",
                                           "toCInt",     "toCBool"};

// The call in E that brings a device value to the host, if any.
const CallExpr *deviceRead(const Expr *E) {
  const CallExpr *Found = nullptr;
  anyDescendant(E, [&](const Stmt *S) {
    const auto *C = dyn_cast<CallExpr>(S);
    const FunctionDecl *F = C ? calleeOf(C) : nullptr;
    if (!F || !DeviceReads.count(F->getNameAsString()))
      return false;
    const Expr *R = receiverOf(C);
    bool OnTensor = R ? isTensorType(R->getType())
                      : C->getNumArgs() > 0 && isTensorType(C->getArg(0)->getType());
    if (OnTensor)
      Found = C;
    return OnTensor;
  });
  return Found;
}

class ControlFlowCheck : public Check {
public:
  void run(FunctionContext &Ctx, const TUFacts &) override {
    walkBody(Ctx.body(), [&](const Stmt *S) {
      const Expr *Cond = nullptr;
      const char *What = "branch";
      if (const auto *If = dyn_cast<IfStmt>(S))
        Cond = If->getCond();
      else if (const auto *W = dyn_cast<WhileStmt>(S))
        Cond = W->getCond(), What = "loop";
      else if (const auto *D = dyn_cast<DoStmt>(S))
        Cond = D->getCond(), What = "loop";
      else if (const auto *F = dyn_cast<ForStmt>(S))
        Cond = F->getCond(), What = "loop";
      else if (const auto *Sw = dyn_cast<SwitchStmt>(S))
        Cond = Sw->getCond();
      else if (const auto *CO = dyn_cast<ConditionalOperator>(S))
        Cond = CO->getCond();
      if (!Cond)
        return;
      if (const CallExpr *Read = deviceRead(Cond))
        Ctx.reportCheck(
            "data-dependent-branch", S->getBeginLoc(), What,
            {{"the condition reads device data here", toLoc(Ctx.sm(), Read->getExprLoc())}});
    });
  }
};

} // namespace

std::unique_ptr<Check> makeControlFlowCheck() { return std::make_unique<ControlFlowCheck>(); }

} // namespace graphsafe::lint
