#include "ParamGates.h"

#include "AstUtil.h"
#include "FunctionContext.h"
#include "NotCapturedPaths.h"

#include "clang/AST/ExprCXX.h"

#include <optional>
#include <set>

namespace graphsafe::lint {

using namespace clang;

namespace {

using Kind = ParamTest::Kind;

const Expr *bare(const Expr *E) { return E ? E->IgnoreParenImpCasts() : nullptr; }

bool isZero(const Expr *E) {
  E = bare(E);
  if (isa_and_nonnull<CXXNullPtrLiteralExpr>(E) || isa_and_nonnull<GNUNullExpr>(E))
    return true;
  if (const auto *B = dyn_cast_or_null<CXXBoolLiteralExpr>(E))
    return !B->getValue();
  const auto *I = dyn_cast_or_null<IntegerLiteral>(E);
  return I && I->getValue() == 0;
}

} // namespace

// A parameter assigned, incremented, taken by address or bound to a
// reference may no longer hold what the caller passed.
std::set<const ParmVarDecl *> readOnlyScalars(const FunctionDecl *F) {
  std::set<const ParmVarDecl *> Out;
  for (const ParmVarDecl *P : F->parameters()) {
    QualType T = P->getType();
    if (T->isBooleanType() || T->isIntegerType() || T->isPointerType() || T->isNullPtrType())
      Out.insert(P);
  }
  if (Out.empty())
    return Out;
  std::map<const ParmVarDecl *, unsigned> Uses, Reads;
  walkBody(F->getBody(), [&](const Stmt *S) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl()))
        ++Uses[P];
    } else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S);
               Cast && Cast->getCastKind() == CK_LValueToRValue) {
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens()))
        if (const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl()))
          ++Reads[P];
    }
  });
  for (auto It = Out.begin(); It != Out.end();)
    It = Uses[*It] == Reads[*It] ? std::next(It) : Out.erase(It);
  return Out;
}

namespace {

class TestFinder {
public:
  explicit TestFinder(const std::set<const ParmVarDecl *> &Params) : Params(Params) {}

  // The tests that hold where Cond went the way Holds says.
  void testsOf(const Expr *Cond, bool Holds, std::vector<ParamTest> &Out) const {
    Cond = bare(Cond);
    if (!Cond)
      return;
    if (auto Index = param(Cond)) {
      Out.push_back({*Index, Holds ? Kind::Truthy : Kind::Falsy});
      return;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(Cond); U && U->getOpcode() == UO_LNot)
      return testsOf(U->getSubExpr(), !Holds, Out);
    const auto *B = dyn_cast<BinaryOperator>(Cond);
    if (!B)
      return;
    // Both sides of `a && b` hold in its then-branch; neither side of
    // `a || b` does in its else-branch. The other branches say nothing of
    // either side alone.
    if ((B->getOpcode() == BO_LAnd && Holds) || (B->getOpcode() == BO_LOr && !Holds)) {
      testsOf(B->getLHS(), Holds, Out);
      testsOf(B->getRHS(), Holds, Out);
      return;
    }
    if (B->getOpcode() != BO_EQ && B->getOpcode() != BO_NE)
      return;
    const Expr *Other = B->getRHS();
    auto Index = param(B->getLHS());
    if (!Index) {
      Index = param(B->getRHS());
      Other = B->getLHS();
    }
    if (!Index || !isZero(Other))
      return;
    bool NonZero = (B->getOpcode() == BO_NE) == Holds;
    Out.push_back({*Index, NonZero ? Kind::Truthy : Kind::Falsy});
  }

private:
  std::optional<unsigned> param(const Expr *E) const {
    const auto *Ref = dyn_cast_or_null<DeclRefExpr>(bare(E));
    const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!P || !Params.count(P))
      return std::nullopt;
    return P->getFunctionScopeIndex();
  }
  const std::set<const ParmVarDecl *> &Params;
};

} // namespace

std::vector<ParamGatedRange> findParamGatedRanges(const FunctionDecl *F,
                                                  const std::set<const ParmVarDecl *> &Fixed,
                                                  ASTContext &Ctx) {
  std::vector<ParamGatedRange> Out;
  if (!F->hasBody() || Fixed.empty())
    return Out;
  TestFinder Finder(Fixed);
  const SourceManager &SM = Ctx.getSourceManager();
  auto add = [&](SourceLocation B, SourceLocation E, const Expr *Cond, bool Holds) {
    std::vector<ParamTest> Tests;
    Finder.testsOf(Cond, Holds, Tests);
    unsigned Begin = offsetOf(SM, B), End = offsetOf(SM, E);
    if (Begin < End)
      for (const ParamTest &T : Tests)
        Out.push_back({Begin, End + 1, T});
  };
  // Every early return counts: what follows `if (!a) return; if (!b) return;`
  // runs when both tests failed.
  forEachTestedRange(F->getBody(),
                     [&](const IfStmt *If, SourceLocation B, SourceLocation E, bool Holds) {
                       add(B, E, If->getCond(), Holds);
                       return false;
                     });
  return Out;
}

std::vector<ConstArg> literalArguments(const CallExpr *C, const FunctionDecl *Callee,
                                       const std::set<const ParmVarDecl *> &Fixed) {
  std::vector<ConstArg> Out;
  if (!C || !Callee)
    return Out;
  // A member operator's object is the call's first argument, not a parameter.
  unsigned Skip = firstParameterArgument(C, Callee);
  for (unsigned I = Skip; I < C->getNumArgs() && I - Skip < Callee->getNumParams(); ++I) {
    const Expr *Arg = C->getArg(I);
    if (const auto *D = dyn_cast<CXXDefaultArgExpr>(Arg->IgnoreParenImpCasts()))
      Arg = D->getExpr();
    Arg = bare(Arg);
    ConstArg A{I - Skip};
    if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(Arg))
      A.Truthy = B->getValue();
    else if (const auto *N = dyn_cast<IntegerLiteral>(Arg))
      A.Truthy = N->getValue() != 0;
    else if (isa<CXXNullPtrLiteralExpr>(Arg) || isa<GNUNullExpr>(Arg))
      A.IsNone = true;
    else if (const auto *Ref = dyn_cast<DeclRefExpr>(Arg);
             Ref && Fixed.count(dyn_cast<ParmVarDecl>(Ref->getDecl())))
      A.From = static_cast<int>(cast<ParmVarDecl>(Ref->getDecl())->getFunctionScopeIndex());
    else
      continue;
    Out.push_back(A);
  }
  return Out;
}

} // namespace graphsafe::lint
