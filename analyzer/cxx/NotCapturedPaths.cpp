#include "NotCapturedPaths.h"

#include "AstUtil.h"

#include "FunctionContext.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <optional>

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

// The value of a template's boolean argument in an instantiation (`Throw`,
// `!Throw`); nothing in the template itself.
std::optional<bool> substitutedTruth(const Expr *E) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return substitutedTruth(S->getReplacement());
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot)
    if (std::optional<bool> V = substitutedTruth(U->getSubExpr()))
      return !*V;
  if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
    return B->getValue();
  if (const auto *I = dyn_cast<IntegerLiteral>(E))
    return I->getValue() != 0;
  return std::nullopt;
}

} // namespace

bool leavesTheFunction(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *C = dyn_cast<CompoundStmt>(S))
    return !C->body_empty() && leavesTheFunction(C->body_back());
  if (const auto *D = dyn_cast<DoStmt>(S))
    return leavesTheFunction(D->getBody());
  // Both ways out leave: `if constexpr (Throw) throw ...; else return err;`.
  // In an instantiation the branch a constexpr condition discards is gone:
  // the one it keeps decides.
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (std::optional<bool> Taken =
            If->isConstexpr() ? substitutedTruth(If->getCond()) : std::nullopt)
      return leavesTheFunction(*Taken ? If->getThen() : If->getElse());
    return If->getElse() && leavesTheFunction(If->getThen()) && leavesTheFunction(If->getElse());
  }
  // `try { ...; throw or return } catch (...) { rethrow or return }`.
  if (const auto *Try = dyn_cast<CXXTryStmt>(S)) {
    for (unsigned I = 0; I < Try->getNumHandlers(); ++I)
      if (!leavesTheFunction(Try->getHandler(I)->getHandlerBlock()))
        return false;
    return leavesTheFunction(Try->getTryBlock());
  }
  return isa<ReturnStmt>(S) || isa<GotoStmt>(S) || endsTheProgramOrThrows(S);
}

namespace {

bool isSuccessName(llvm::StringRef N) { return N.ends_with("Success") || N.ends_with("SUCCESS"); }

// A status enumerator meaning success (cudaSuccess, CUDA_SUCCESS, ncclSuccess,
// CUBLAS_STATUS_SUCCESS, a project's own fooSuccess), or null.
const EnumConstantDecl *successStatus(const Expr *E) {
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *C = D ? dyn_cast<EnumConstantDecl>(D->getDecl()) : nullptr;
  return C && C->getInitVal() == 0 && isSuccessName(C->getName()) ? C : nullptr;
}

// A parameter holding the success value a generic checker compares with
// (`successCode` in `template <class E> check(E ret, E successCode)`), whose
// callers pass cudaSuccess, CUBLAS_STATUS_SUCCESS...
bool isSuccessParameter(const Expr *E) {
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
  return P && P->getIdentifier() && P->getName().lower().find("success") != std::string::npos;
}

// A C API's error object: a pointer to a status record, null on success
// (ONNX Runtime's `OrtStatus*`, returned by every call of its API).
bool isStatusPointer(const Expr *E) {
  QualType T = E->IgnoreParenImpCasts()->getType();
  if (!T->isPointerType())
    return false;
  const RecordDecl *R = T->getPointeeType()->getAsRecordDecl();
  return R && R->getIdentifier() && R->getName().ends_with("Status");
}

bool isNullPointer(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *I = dyn_cast<IntegerLiteral>(E))
    return I->getValue() == 0;
  return isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E);
}

// Which branch of a condition runs when a status is a failure: `err !=
// cudaSuccess` (Then), `err == cudaSuccess` (Else), or `if (err)` on a
// status enum whose success value is zero (Then). Against a success
// parameter the status is the project's own kind: the branch must hand it
// back.
enum class FailureSide { None, Then, Else };
struct StatusTest {
  FailureSide Side = FailureSide::None;
  const EnumDecl *Status = nullptr;
};
StatusTest statusTest(const Expr *Cond) {
  Cond = Cond->IgnoreParenImpCasts();
  // `if (status)`, `status != nullptr`: a status object came back, a failure.
  if (isStatusPointer(Cond))
    return {FailureSide::Then, nullptr};
  if (const auto *B = dyn_cast<BinaryOperator>(Cond);
      B && (B->getOpcode() == BO_NE || B->getOpcode() == BO_EQ)) {
    if ((isStatusPointer(B->getLHS()) && isNullPointer(B->getRHS())) ||
        (isStatusPointer(B->getRHS()) && isNullPointer(B->getLHS())))
      return {B->getOpcode() == BO_NE ? FailureSide::Then : FailureSide::Else, nullptr};
    const EnumConstantDecl *S = successStatus(B->getLHS());
    S = S ? S : successStatus(B->getRHS());
    if (S)
      return {B->getOpcode() == BO_NE ? FailureSide::Then : FailureSide::Else,
              dyn_cast<EnumDecl>(S->getDeclContext())};
    if (isSuccessParameter(B->getLHS()) || isSuccessParameter(B->getRHS()))
      return {B->getOpcode() == BO_NE ? FailureSide::Then : FailureSide::Else, nullptr};
  }
  // A status class with its own comparison (cudnn_frontend::error_t) against a
  // success parameter.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Cond);
      Op && Op->getNumArgs() == 2 &&
      (Op->getOperator() == OO_ExclaimEqual || Op->getOperator() == OO_EqualEqual) &&
      (isSuccessParameter(Op->getArg(0)) || isSuccessParameter(Op->getArg(1))))
    return {Op->getOperator() == OO_ExclaimEqual ? FailureSide::Then : FailureSide::Else, nullptr};
  if (const auto *ET = Cond->getType()->getAs<EnumType>())
    for (const EnumConstantDecl *C : ET->getDecl()->enumerators())
      if (C->getInitVal() == 0 && isSuccessName(C->getName()))
        return {FailureSide::Then, ET->getDecl()};
  return {};
}

// Code that runs only after a failed status: a CUDA or library status (its
// enum declared in library code) means the capture has already failed,
// whatever the branch does; a project's own status must be handed back up
// (the branch leaves the function) to count as error handling.
bool onlyAfterFailure(const StatusTest &T, FailureSide Side, const Stmt *Branch,
                      const SourceManager &SM) {
  if (T.Side != Side || !Branch)
    return false;
  return (T.Status && isLibraryCode(SM, T.Status->getLocation())) || leavesTheFunction(Branch);
}

SpelledRange spelled(const Stmt *S, const SourceManager &SM) {
  SourceLocation B = SM.getSpellingLoc(S->getBeginLoc());
  SourceLocation E = SM.getSpellingLoc(S->getEndLoc());
  if (SM.getFileID(B) != SM.getFileID(E))
    return {};
  return {SM.getFileID(B), SM.getFileOffset(B), SM.getFileOffset(E) + 1};
}

// The declaration an expression names at its leaf (`g_ws.ptr` -> ptr), when
// it outlives any one call: a global or static, or a member. Locals are not
// set up once; they are set up every time.
const ValueDecl *longLivedLeaf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) // handles[device][stream]
    return longLivedLeaf(A->getBase());
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = M->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base) || longLivedLeaf(Base))
      return M->getMemberDecl();
    return nullptr;
  }
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()); V && V->hasGlobalStorage())
      return V;
  return nullptr;
}

bool isNullOrFalse(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return true;
  if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
    return !B->getValue();
  if (const auto *I = dyn_cast<IntegerLiteral>(E))
    return I->getValue() == 0;
  return false;
}

// `!x`, `x == nullptr`, `nullptr == x`, `x == 0`, `x == false`: the state
// tested for being still unset.
const ValueDecl *testedUnset(const Expr *Cond) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond); U && U->getOpcode() == UO_LNot)
    return longLivedLeaf(U->getSubExpr());
  if (const auto *B = dyn_cast<BinaryOperator>(Cond); B && B->getOpcode() == BO_EQ) {
    if (isNullOrFalse(B->getRHS()))
      return longLivedLeaf(B->getLHS());
    if (isNullOrFalse(B->getLHS()))
      return longLivedLeaf(B->getRHS());
  }
  return nullptr;
}

// Whether S stores into D: assigns it, or hands out its address (the
// out-parameter of cudaMalloc, cublasCreate, cudaStreamCreate...).
bool setsUp(const Stmt *S, const ValueDecl *D) {
  return anyDescendant(S, [&](const Stmt *X) {
    const Expr *Target = storedInto(X, /*AddressOf=*/true);
    return Target && longLivedLeaf(Target) == D;
  });
}

} // namespace

std::vector<SpelledRange> findNotCaptured(const Stmt *Body, const SourceManager &SM) {
  std::vector<SpelledRange> Out;
  auto add = [&](const Stmt *S) {
    if (SpelledRange R = spelled(S, SM); R.End)
      Out.push_back(R);
  };
  walkBody(Body, [&](const Stmt *S) {
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      const ValueDecl *Unset = testedUnset(If->getCond());
      // A failed CUDA (or library, or project) status handed back up: when
      // that branch runs, the capture has already failed.
      StatusTest Status = statusTest(If->getCond());
      if (endsTheProgramOrThrows(If->getThen()) || (Unset && setsUp(If->getThen(), Unset)) ||
          onlyAfterFailure(Status, FailureSide::Then, If->getThen(), SM))
        add(If->getThen());
      if (If->getElse() && (endsTheProgramOrThrows(If->getElse()) ||
                            onlyAfterFailure(Status, FailureSide::Else, If->getElse(), SM)))
        add(If->getElse());
    } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->isStaticLocal() && V->getInit())
          add(V->getInit());
    }
  });
  return Out;
}

std::vector<const Stmt *> findEarlyExits(const Stmt *Body) {
  std::vector<const Stmt *> Out;
  walkBody(Body, [&](const Stmt *S) {
    if (const auto *If = dyn_cast<IfStmt>(S))
      for (const Stmt *Branch : {If->getThen(), If->getElse()})
        if (Branch && leavesTheFunction(Branch) && !endsTheProgramOrThrows(Branch))
          Out.push_back(Branch);
  });
  return Out;
}

std::vector<SpelledRange> findEarlyExitsBeforeEnd(const Stmt *Body, unsigned EndOffset,
                                                  const SourceManager &SM) {
  std::vector<SpelledRange> Out;
  for (const Stmt *Branch : findEarlyExits(Body))
    if (offsetOf(SM, Branch->getEndLoc()) < EndOffset)
      if (SpelledRange R = spelled(Branch, SM); R.End)
        Out.push_back(R);
  return Out;
}

bool inAny(const std::vector<SpelledRange> &Ranges, SourceLocation L, const SourceManager &SM) {
  if (Ranges.empty())
    return false;
  auto in = [&](SourceLocation S) {
    FileID F = SM.getFileID(S);
    unsigned Off = SM.getFileOffset(S);
    return std::any_of(Ranges.begin(), Ranges.end(), [&](const SpelledRange &R) {
      return R.File == F && Off >= R.Begin && Off < R.End;
    });
  };
  // Where the code is written (a branch inside a macro's definition), where
  // it sits in the file (a call whose name is itself a macro, such as
  // cublasCreate, written inside a branch), and each macro on the way between
  // (a logging macro used inside the branch of an error-checking macro).
  if (in(SM.getFileLoc(L)))
    return true;
  for (int Depth = 0; Depth < 16; ++Depth) {
    if (in(SM.getSpellingLoc(L)))
      return true;
    if (!L.isMacroID())
      break;
    L = SM.getImmediateMacroCallerLoc(L);
  }
  return false;
}

} // namespace graphsafe::lint
