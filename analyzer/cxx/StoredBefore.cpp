#include "StoredBefore.h"

#include "AstUtil.h"
#include "FunctionContext.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

namespace graphsafe::lint {

using namespace clang;

namespace {

// The member of `this` or the local variable E names; null for anything else
// (another object's member, a global, a parameter the caller filled).
const ValueDecl *ownStorage(const Expr *E) {
  E = strip(E);
  if (const auto *M = dyn_cast_or_null<MemberExpr>(E))
    return isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()) ? M->getMemberDecl() : nullptr;
  if (const auto *R = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl());
        V && V->hasLocalStorage() && !isa<ParmVarDecl>(V))
      return V;
  return nullptr;
}

const Stmt *parentOf(const Stmt *S, ASTContext &AC) {
  auto Parents = AC.getParents(*S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

bool holds(const Stmt *Outer, const Stmt *Inner, ASTContext &AC) {
  for (int Depth = 0; Inner && Depth < 128; ++Depth, Inner = parentOf(Inner, AC))
    if (Inner == Outer)
      return true;
  return false;
}

} // namespace

const FunctionDecl *
storedJustBefore(const Stmt *Body, const Expr *Target, const CallExpr *C, ASTContext &AC,
                 const std::function<const FunctionDecl *(const Expr *)> &CallableOf) {
  const ValueDecl *Storage = ownStorage(Target);
  if (!Storage || !Body)
    return nullptr;
  const SourceManager &SM = AC.getSourceManager();
  const unsigned CallAt = offsetOf(SM, C->getBeginLoc());
  const Stmt *Last = nullptr;
  const Expr *Value = nullptr;
  unsigned LastAt = 0;
  walkBody(Body, [&](const Stmt *S) {
    const Expr *Lhs = nullptr, *Rhs = nullptr;
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->getOpcode() == BO_Assign) {
      Lhs = B->getLHS();
      Rhs = B->getRHS();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
               Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      Lhs = Op->getArg(0);
      Rhs = Op->getArg(1);
    }
    if (!Lhs || ownStorage(Lhs) != Storage)
      return;
    unsigned At = offsetOf(SM, S->getBeginLoc());
    if (At < CallAt && (!Last || At > LastAt)) {
      Last = S;
      Value = Rhs;
      LastAt = At;
    }
  });
  if (!Last)
    return nullptr;
  // The store must run on every path to the call: a statement of a block
  // that holds the call.
  const Stmt *Up = parentOf(Last, AC);
  while (Up && isa<ExprWithCleanups>(Up))
    Up = parentOf(Up, AC);
  if (!Up || !isa<CompoundStmt>(Up) || !holds(Up, C, AC))
    return nullptr;
  return CallableOf(Value);
}

} // namespace graphsafe::lint
