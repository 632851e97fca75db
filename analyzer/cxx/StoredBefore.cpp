#include "StoredBefore.h"

#include "AstUtil.h"
#include "FunctionContext.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <vector>

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

// The block that has S among its own statements (a full expression may sit
// under ExprWithCleanups). Searched from the root rather than through the
// AST's parent map, which a whole translation unit would pay for.
const CompoundStmt *blockHolding(const Stmt *Root, const Stmt *S) {
  if (!Root)
    return nullptr;
  if (const auto *Block = dyn_cast<CompoundStmt>(Root))
    for (const Stmt *Child : Block->body()) {
      const Stmt *Inner = Child;
      if (const auto *Cleanups = dyn_cast_or_null<ExprWithCleanups>(Inner))
        Inner = Cleanups->getSubExpr();
      if (Child == S || Inner == S)
        return Block;
    }
  for (const Stmt *Child : Root->children())
    if (const CompoundStmt *Found = blockHolding(Child, S))
      return Found;
  return nullptr;
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
  std::vector<unsigned> LaterStores;
  std::vector<std::pair<unsigned, unsigned>> Loops;
  walkBody(Body, [&](const Stmt *S) {
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
      Loops.push_back({offsetOf(SM, S->getBeginLoc()), offsetOf(SM, S->getEndLoc())});
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
    if (At > CallAt)
      LaterStores.push_back(At);
    if (At < CallAt && (!Last || At > LastAt)) {
      Last = S;
      Value = Rhs;
      LastAt = At;
    }
  });
  if (!Last)
    return nullptr;
  // A store after the call in a loop around it reaches the next turn's call.
  for (const auto &[Begin, End] : Loops)
    if (Begin <= CallAt && CallAt <= End)
      for (unsigned At : LaterStores)
        if (At <= End)
          return nullptr;
  // The store must run on every path to the call: a statement of a block
  // that holds the call.
  const CompoundStmt *Block = blockHolding(Body, Last);
  if (!Block || CallAt >= offsetOf(SM, Block->getEndLoc()) ||
      CallAt < offsetOf(SM, Block->getBeginLoc()))
    return nullptr;
  return CallableOf(Value);
}

} // namespace graphsafe::lint
