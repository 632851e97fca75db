#include "CacheRefills.h"

#include "AstUtil.h"
#include "FunctionContext.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

namespace graphsafe::lint {

using namespace clang;

namespace {

using FieldChain = std::vector<const FieldDecl *>;

// The fields from the method's own object out to E (`s_.last_x_dims`:
// s_, last_x_dims); empty when E is not a member of `this`.
FieldChain ownFieldChain(const Expr *E) {
  FieldChain Out;
  E = strip(E);
  while (const auto *M = dyn_cast_or_null<MemberExpr>(E)) {
    const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (!F)
      return {};
    Out.insert(Out.begin(), F);
    E = strip(M->getBase());
  }
  if (!isa_and_nonnull<CXXThisExpr>(E))
    return {};
  return Out;
}

bool isEquality(const Stmt *S, const Expr *&L, const Expr *&R) {
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isEqualityOp()) {
    L = B->getLHS();
    R = B->getRHS();
    return true;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && Op->getNumArgs() == 2 &&
      (Op->getOperator() == OO_EqualEqual || Op->getOperator() == OO_ExclaimEqual)) {
    L = Op->getArg(0);
    R = Op->getArg(1);
    return true;
  }
  return false;
}

// Members of the own object compared for (in)equality in a condition,
// following locals that hold such a comparison (`bool changed = a != b;`).
void comparedMembers(const Expr *Cond, std::vector<FieldChain> &Out, int Depth = 0) {
  if (!Cond || Depth > 2)
    return;
  anyDescendant(Cond, [&](const Stmt *S) {
    const Expr *L = nullptr, *R = nullptr;
    if (isEquality(S, L, R)) {
      for (const Expr *Side : {L, R})
        if (FieldChain C = ownFieldChain(Side); !C.empty())
          Out.push_back(std::move(C));
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
          V && V->isLocalVarDecl() && V->getType()->isBooleanType())
        comparedMembers(V->getInit(), Out, Depth + 1);
    }
    return false;
  });
}

bool stores(const Stmt *Branch, const FieldChain &Key) {
  return anyDescendant(Branch, [&](const Stmt *S) {
    const Expr *Target = storedInto(S, /*AddressOf=*/false);
    return Target && ownFieldChain(Target) == Key;
  });
}

} // namespace

std::vector<CacheRefill> findCacheRefills(const Stmt *Body, const SourceManager &SM) {
  std::vector<CacheRefill> Out;
  walkBody(Body, [&](const Stmt *S) {
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If)
      return;
    std::vector<FieldChain> Keys;
    comparedMembers(If->getCond(), Keys);
    for (const FieldChain &Key : Keys) {
      if (!stores(If->getThen(), Key) && !(If->getElse() && stores(If->getElse(), Key)))
        continue;
      CacheRefill R;
      R.Begin = offsetOf(SM, If->getThen()->getBeginLoc());
      R.End = offsetOf(SM, If->getEndLoc()) + 1;
      R.Cache = Key.size() > 1 ? Key.front() : nullptr;
      Out.push_back(R);
    }
  });
  return Out;
}

bool refillsCache(const std::vector<CacheRefill> &Refills, const Expr *Target, SourceLocation L,
                  const SourceManager &SM) {
  if (Refills.empty())
    return false;
  FieldChain Chain = ownFieldChain(Target);
  if (Chain.empty())
    return false;
  unsigned Off = offsetOf(SM, L);
  for (const CacheRefill &R : Refills)
    if (Off >= R.Begin && Off < R.End && (!R.Cache || Chain.front() == R.Cache))
      return true;
  return false;
}

} // namespace graphsafe::lint
