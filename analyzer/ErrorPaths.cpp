#include "ErrorPaths.h"

#include "FunctionContext.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

namespace graphsafe::lint {

using namespace clang;

namespace {

// Whether control leaving S never falls through: it throws or calls a
// function that does not return (exit, abort, [[noreturn]] helpers).
bool endsTheProgramOrThrows(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *C = dyn_cast<CompoundStmt>(S))
    return !C->body_empty() && endsTheProgramOrThrows(C->body_back());
  if (const auto *D = dyn_cast<DoStmt>(S)) // do { ...; exit(1); } while (0)
    return endsTheProgramOrThrows(D->getBody());
  if (const auto *E = dyn_cast<Expr>(S)) {
    E = E->IgnoreImplicit()->IgnoreParenCasts();
    if (isa<CXXThrowExpr>(E))
      return true;
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *F = Call->getDirectCallee())
        return F->isNoReturn();
  }
  return false;
}

} // namespace

std::vector<SpelledRange> findErrorPaths(const Stmt *Body, const SourceManager &SM) {
  std::vector<SpelledRange> Out;
  auto add = [&](const Stmt *Branch) {
    if (!endsTheProgramOrThrows(Branch))
      return;
    SourceLocation B = SM.getSpellingLoc(Branch->getBeginLoc());
    SourceLocation E = SM.getSpellingLoc(Branch->getEndLoc());
    if (SM.getFileID(B) != SM.getFileID(E))
      return;
    Out.push_back({SM.getFileID(B), SM.getFileOffset(B), SM.getFileOffset(E) + 1});
  };
  walkBody(Body, [&](const Stmt *S) {
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      add(If->getThen());
      add(If->getElse());
    }
  });
  return Out;
}

bool inAny(const std::vector<SpelledRange> &Ranges, SourceLocation L, const SourceManager &SM) {
  if (Ranges.empty())
    return false;
  SourceLocation S = SM.getSpellingLoc(L);
  FileID F = SM.getFileID(S);
  unsigned Off = SM.getFileOffset(S);
  for (const auto &R : Ranges)
    if (R.File == F && Off >= R.Begin && Off < R.End)
      return true;
  return false;
}

} // namespace graphsafe::lint
