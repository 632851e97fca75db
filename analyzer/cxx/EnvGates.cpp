#include "EnvGates.h"

#include "AstUtil.h"
#include "FunctionContext.h"
#include "NotCapturedPaths.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

#include <optional>

namespace graphsafe::lint {

using namespace clang;

namespace {

const Expr *bare(const Expr *E) { return E ? E->IgnoreParenImpCasts() : nullptr; }

std::string calleeName(const CallExpr *C) {
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  return F && F->getIdentifier() ? F->getName().str() : "";
}

// getenv("X"), secure_getenv("X"): the variable's name.
std::optional<std::string> envRead(const Expr *E) {
  const auto *C = dyn_cast_or_null<CallExpr>(bare(E));
  std::string Name = calleeName(C);
  if ((Name != "getenv" && Name != "secure_getenv") || C->getNumArgs() != 1)
    return std::nullopt;
  if (const auto *S = dyn_cast<StringLiteral>(bare(C->getArg(0))))
    return S->getString().str();
  return std::nullopt;
}

bool isNull(const Expr *E) {
  E = bare(E);
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return true;
  const auto *I = dyn_cast<IntegerLiteral>(E);
  return I && I->getValue() == 0;
}

// The variable E holds only when the environment sets it, if any.
std::optional<std::string> setTest(const Expr *E, int Depth) {
  E = bare(E);
  if (!E || Depth > 4)
    return std::nullopt;
  if (auto V = envRead(E))
    return V;
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_LAnd) {
      auto L = setTest(B->getLHS(), Depth + 1);
      return L ? L : setTest(B->getRHS(), Depth + 1);
    }
    if (B->getOpcode() == BO_LOr) {
      auto L = setTest(B->getLHS(), Depth + 1);
      return L && setTest(B->getRHS(), Depth + 1) ? L : std::nullopt;
    }
    // getenv("X") != nullptr; strcmp(getenv("X"), "1") == 0; atoi(getenv("X")) > 0.
    if (B->getOpcode() == BO_NE && isNull(B->getRHS()))
      return envRead(B->getLHS());
    if (B->getOpcode() == BO_EQ && isNull(B->getRHS()))
      if (const auto *C = dyn_cast<CallExpr>(bare(B->getLHS()));
          C && calleeName(C) == "strcmp" && C->getNumArgs() == 2)
        return envRead(C->getArg(0));
    if (B->getOpcode() == BO_GT && isNull(B->getRHS()))
      return setTest(B->getLHS(), Depth + 1);
    return std::nullopt;
  }
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    std::string Name = calleeName(C);
    if ((Name == "atoi" || Name == "atol" || Name == "stoi") && C->getNumArgs() >= 1)
      return envRead(C->getArg(0));
    return std::nullopt;
  }
  // static const bool Debug = getenv("X") != nullptr; ... if (Debug)
  // A parameter's default is what callers leave out, not a test.
  if (const Expr *Init = initializerOf(E); Init && !isa_and_nonnull<ParmVarDecl>(referencedDecl(E)))
    return setTest(Init, Depth + 1);
  return std::nullopt;
}

// `!getenv("X")`, `getenv("X") == nullptr`: holds when the variable is unset.
std::optional<std::string> unsetTest(const Expr *E) {
  E = bare(E);
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot)
    return setTest(U->getSubExpr(), 0);
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && B->getOpcode() == BO_EQ && isNull(B->getRHS()))
    return envRead(B->getLHS());
  return std::nullopt;
}

} // namespace

std::vector<EnvGatedRange> findEnvGatedRanges(const FunctionDecl *F, ASTContext &Ctx) {
  std::vector<EnvGatedRange> Out;
  if (!F->hasBody())
    return Out;
  const SourceManager &SM = Ctx.getSourceManager();
  auto add = [&](SourceLocation B, SourceLocation E, const std::string &Var) {
    unsigned Begin = offsetOf(SM, B), End = offsetOf(SM, E);
    if (Begin < End)
      Out.push_back({Begin, End + 1, Var});
  };
  // A then-branch under a set test, an else-branch or the rest of a block
  // after an unset test; one variable is enough to gate a stretch.
  forEachTestedRange(F->getBody(),
                     [&](const IfStmt *If, SourceLocation B, SourceLocation E, bool Holds) {
                       auto Var = Holds ? setTest(If->getCond(), 0) : unsetTest(If->getCond());
                       if (Var)
                         add(B, E, *Var);
                       return Var.has_value();
                     });
  return Out;
}

} // namespace graphsafe::lint
