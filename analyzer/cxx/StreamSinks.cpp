#include "StreamSinks.h"

#include "AstUtil.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <array>

using namespace clang;

namespace graphsafe::lint {
namespace {

bool isOstreamType(QualType T) { return typeIsOrDerivesFrom(T, "std::basic_ostream"); }

bool isStringStream(QualType T) {
  return typeIsOrDerivesFrom(T, "std::basic_ostringstream") ||
         typeIsOrDerivesFrom(T, "std::basic_stringstream");
}

// `os` or `*os` where os is a parameter of the enclosing function.
bool isStreamParameter(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  const auto *D = dyn_cast<DeclRefExpr>(E);
  return D && isa<ParmVarDecl>(D->getDecl()) && isOstreamType(D->getType());
}

bool isStandardOutputObject(const Expr *E) {
  static const std::array<const char *, 6> Names = {"std::cout",  "std::cerr",  "std::clog",
                                                    "std::wcout", "std::wcerr", "std::wclog"};
  const ValueDecl *D = referencedDecl(strip(E));
  if (!D)
    return false;
  std::string Q = qualifiedName(D);
  for (const char *N : Names)
    if (nameMatches(Q, N))
      return true;
  return false;
}

bool isOutputStreamObject(const Expr *E) {
  E = strip(E);
  return isStandardOutputObject(E) || typeIsOrDerivesFrom(E->getType(), "std::basic_ofstream") ||
         typeIsOrDerivesFrom(E->getType(), "std::basic_fstream");
}

} // namespace

const Expr *streamRoot(const Expr *StreamArg) {
  const Expr *E = strip(StreamArg);
  while (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() != OO_LessLess || Op->getNumArgs() == 0)
      break;
    E = strip(Op->getArg(0));
  }
  return E;
}

bool writesToOutput(const CXXOperatorCallExpr *Op) {
  if (Op->getNumArgs() == 0)
    return false;
  const Expr *Root = streamRoot(Op->getArg(0));
  return !isStringStream(Root->getType()) && !isStreamParameter(Root);
}

bool handsOutputStream(const CallExpr *C, const FunctionDecl *Callee, unsigned Shift) {
  if (!Callee)
    return false;
  for (unsigned I = 0; I < Callee->getNumParams() && I + Shift < C->getNumArgs(); ++I)
    if (isOstreamType(Callee->getParamDecl(I)->getType()) &&
        isOutputStreamObject(C->getArg(I + Shift)))
      return true;
  return false;
}

} // namespace graphsafe::lint
