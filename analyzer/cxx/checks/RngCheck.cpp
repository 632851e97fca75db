// Random numbers under capture: PyTorch registers the default CUDA generator
// with each graph so replays advance its Philox offset; an explicit generator
// must be registered too, or every replay draws the same numbers. Seeds read
// on the host and passed to a kernel are frozen into the graph.
#include "../AstUtil.h"
#include "Check.h"

#include "clang/AST/ExprCXX.h"

#include <set>

namespace graphsafe::lint {

using namespace clang;

namespace {

bool createsCudaGenerator(const Expr *E) {
  return anyDescendant(E, [](const Stmt *S) {
    const auto *C = dyn_cast<CallExpr>(S);
    const FunctionDecl *F = C ? calleeOf(C) : nullptr;
    if (!F)
      return false;
    if (F->getName() == "createCUDAGenerator")
      return true;
    if (F->getName() != "make_generator")
      return false;
    if (const auto *Args = F->getTemplateSpecializationArgs())
      for (const auto &A : Args->asArray())
        if (A.getKind() == TemplateArgument::Type &&
            typeIsOrDerivesFrom(A.getAsType(), "at::CUDAGeneratorImpl"))
          return true;
    return false;
  });
}

const std::set<std::string> HostRandom = {"rand", "random",       "rand_r", "drand48",
                                          "time", "current_seed", "seed",   "random_device"};

bool readsHostRandom(const Expr *E, unsigned Depth = 0) {
  return anyDescendant(E, [&](const Stmt *S) {
    if (const auto *C = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *F = calleeOf(C);
      if (F && HostRandom.count(F->getNameAsString()))
        return true;
      // engine() of <random> engines and distributions.
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C); Op && Op->getOperator() == OO_Call) {
        std::string Q = qualifiedName(Op->getArg(0)->getType()->getAsCXXRecordDecl());
        if (Q.find("engine") != std::string::npos || Q.find("random_device") != std::string::npos ||
            Q.find("distribution") != std::string::npos)
          return true;
      }
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl()); V && V->getInit() && Depth < 2)
        return readsHostRandom(V->getInit(), Depth + 1);
    return false;
  });
}

class RngCheck : public Check {
public:
  void run(FunctionContext &Ctx, const TUFacts &Facts) override {
    walkBody(Ctx.body(), [&](const Stmt *S) {
      const auto *C = dyn_cast<CallExpr>(S);
      if (!C)
        return;
      if (isa<CUDAKernelCallExpr>(C) ||
          (calleeOf(C) && calleeOf(C)->getName() == "cudaLaunchKernel")) {
        for (const Expr *A : C->arguments())
          if (readsHostRandom(A)) {
            Ctx.reportCheck("host-seeded-kernel", A->getBeginLoc(), "");
            break;
          }
        return;
      }
      const FunctionDecl *F = calleeOf(C);
      if (!F || F->getName() == "register_generator_state")
        return;
      for (const Expr *A : C->arguments()) {
        // Generators reach RNG ops wrapped (c10::optional<at::Generator>), so
        // look through the whole argument.
        const ValueDecl *Gen = nullptr;
        anyDescendant(A, [&](const Stmt *X) {
          const ValueDecl *D = nullptr;
          if (const auto *Ref = dyn_cast<DeclRefExpr>(X))
            D = Ref->getDecl();
          else if (const auto *M = dyn_cast<MemberExpr>(X))
            D = M->getMemberDecl();
          if (!D || Facts.RegisteredGenerators.count(D))
            return false;
          const Expr *Init = nullptr;
          if (const auto *V = dyn_cast<VarDecl>(D))
            Init = V->getInit();
          else if (const auto *Field = dyn_cast<FieldDecl>(D)) {
            auto It = Facts.FieldInits.find(Field);
            Init = It != Facts.FieldInits.end() ? It->second : Field->getInClassInitializer();
          }
          if (Init && createsCudaGenerator(Init))
            Gen = D;
          return Gen != nullptr;
        });
        if (Gen) {
          Ctx.reportCheck("unregistered-generator", A->getBeginLoc(), Gen->getNameAsString());
          break;
        }
      }
    });
  }
};

} // namespace

std::unique_ptr<Check> makeRngCheck() { return std::make_unique<RngCheck>(); }

} // namespace graphsafe::lint
