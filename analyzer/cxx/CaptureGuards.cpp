// Code on the non-capturing side of a capture-status test never runs under
// capture, so findings there are not reported.
#include "CaptureRegionFinder.h"

#include "AstUtil.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <optional>
#include <set>

namespace graphsafe::lint {

using namespace clang;

namespace {

class GuardFinder {
public:
  GuardFinder(const CaptureSpec &Spec, ASTContext &Ctx, int Depth = 0)
      : Spec(Spec), Ctx(Ctx), SM(Ctx.getSourceManager()), Depth(Depth) {}

  GuardFinder &withCurrent(const FunctionDecl *F) {
    Current = F;
    return *this;
  }

  // A helper whose every return tests capture the same way (`return
  // !isCapturing(stream) && debug;`) is a test wherever it is called. A
  // `return false` path agrees with either polarity: the condition does not
  // hold there at all. A helper that returns false on every path, as this
  // build compiles it (`#else return false;` where graph support is
  // configured out), never holds: it counts as holding only while not
  // capturing, so what it guards is dead rather than captured.
  std::optional<bool> returnPolarity(const FunctionDecl *F) {
    if (!F->hasBody() || Depth > 3)
      return std::nullopt;
    collectStatusVars(F->getBody());
    std::optional<bool> Result;
    bool Mixed = false, ReturnsFalse = false;
    walkBody(F->getBody(), [&](const Stmt *S) {
      const auto *R = dyn_cast<ReturnStmt>(S);
      if (!R || !R->getRetValue())
        return;
      const Expr *V = R->getRetValue()->IgnoreParenImpCasts();
      if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(V); B && !B->getValue()) {
        ReturnsFalse = true;
        return;
      }
      auto P = polarity(V);
      if (!P || (Result && *Result != *P))
        Mixed = true;
      Result = P;
    });
    if (!Mixed && !Result && ReturnsFalse)
      return false;
    return Mixed ? std::nullopt : Result;
  }

  std::vector<std::pair<unsigned, unsigned>> run(const FunctionDecl *F) {
    collectStatusVars(F->getBody());
    walkBody(F->getBody(), [&](const Stmt *S) {
      if (const auto *If = dyn_cast<IfStmt>(S))
        visitIf(If);
      else if (const auto *CO = dyn_cast<ConditionalOperator>(S))
        visitConditional(CO);
      else if (const auto *CS = dyn_cast<CompoundStmt>(S))
        visitEarlyExits(CS);
    });
    return Ranges;
  }

private:
  bool isStatusQuery(const CallExpr *C) const {
    const FunctionDecl *F = calleeOf(C);
    if (!F)
      return false;
    std::string Q = qualifiedName(F);
    for (const auto &P : Spec.StatusQueries)
      if (nameMatches(Q, P))
        return true;
    return false;
  }

  // Variables that hold a capture status: initialised or assigned from a
  // query, or passed by address to one (cudaStreamIsCapturing(s, &status)).
  void collectStatusVars(const Stmt *Body) {
    walkBody(Body, [&](const Stmt *S) {
      if (const auto *C = dyn_cast<CallExpr>(S); C && isStatusQuery(C)) {
        for (const Expr *A : C->arguments())
          if (const auto *U = dyn_cast<UnaryOperator>(strip(A)); U && U->getOpcode() == UO_AddrOf)
            if (const ValueDecl *D = referencedDecl(U->getSubExpr()))
              StatusVars.insert(D);
      }
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit() && isStatusExpr(V->getInit()))
            StatusVars.insert(V);
      if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
        if (isStatusExpr(B->getRHS()))
          if (const ValueDecl *D = referencedDecl(B->getLHS()))
            StatusVars.insert(D);
    });
  }

  bool isStatusExpr(const Expr *E) const {
    return anyDescendant(E, [&](const Stmt *S) {
      if (const auto *C = dyn_cast<CallExpr>(S))
        return isStatusQuery(C);
      if (const auto *D = dyn_cast<DeclRefExpr>(S))
        return StatusVars.count(D->getDecl()) > 0;
      return false;
    });
  }

  bool isNotCapturingConstant(const Expr *E) const {
    const ValueDecl *D = referencedDecl(E);
    if (!D || !isa<EnumConstantDecl>(D))
      return false;
    std::string Q = qualifiedName(D);
    for (const auto &P : Spec.NotCapturing)
      if (nameMatches(Q, P))
        return true;
    return false;
  }

  // Some(true): the condition holds only while capturing; Some(false): only
  // while not capturing; None: not a capture test.
  std::optional<bool> polarity(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot) {
      auto P = polarity(U->getSubExpr());
      return P ? std::optional<bool>(!*P) : std::nullopt;
    }
    const Expr *L = nullptr, *R = nullptr;
    BinaryOperatorKind Op = BO_Comma;
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      Op = B->getOpcode();
      L = B->getLHS();
      R = B->getRHS();
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getNumArgs() == 2) {
      if (OC->getOperator() == OO_EqualEqual)
        Op = BO_EQ;
      else if (OC->getOperator() == OO_ExclaimEqual)
        Op = BO_NE;
      L = OC->getArg(0);
      R = OC->getArg(1);
    }
    if (Op == BO_LAnd || Op == BO_LOr) {
      auto PL = polarity(L), PR = polarity(R);
      // A && B with either side "not capturing" is "not capturing"; dually for ||.
      if (Op == BO_LAnd && ((PL && !*PL) || (PR && !*PR)))
        return false;
      if (Op == BO_LOr && ((PL && *PL) || (PR && *PR)))
        return true;
      return std::nullopt;
    }
    if ((Op == BO_EQ || Op == BO_NE) && L && R) {
      const Expr *Status = isStatusExpr(L) ? L : isStatusExpr(R) ? R : nullptr;
      const Expr *Other = Status == L ? R : L;
      if (!Status)
        return std::nullopt;
      bool ComparesToNone = isNotCapturingConstant(Other);
      if (!ComparesToNone && !referencedDecl(Other))
        return std::nullopt; // e.g. cudaStreamIsCapturing(...) == cudaSuccess
      // status == None: not capturing; status == Active: capturing.
      bool Equal = Op == BO_EQ;
      return ComparesToNone ? !Equal : Equal;
    }
    if (isStatusExpr(E) && (isa<DeclRefExpr>(E) || isa<CallExpr>(E)))
      return true; // The status enum's "none" is 0, so a truthy status means capturing.
    if (const auto *C = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *F = calleeOf(C); F && F->getReturnType()->isBooleanType()) {
        const FunctionDecl *Def = F->getDefinition();
        if (Def && Def != Current)
          return GuardFinder(Spec, Ctx, Depth + 1).withCurrent(Def).returnPolarity(Def);
      }
    return std::nullopt;
  }

  void add(const Stmt *S) {
    if (S)
      Ranges.push_back({offsetOf(SM, S->getBeginLoc()), offsetOf(SM, S->getEndLoc()) + 1});
  }

  void visitIf(const IfStmt *If) {
    auto P = polarity(If->getCond());
    if (!P)
      return;
    add(*P ? If->getElse() : If->getThen());
  }

  void visitConditional(const ConditionalOperator *CO) {
    auto P = polarity(CO->getCond());
    if (P)
      add(*P ? CO->getFalseExpr() : CO->getTrueExpr());
  }

  static bool exits(const Stmt *S) {
    if (!S)
      return false;
    if (isa<ReturnStmt>(S) || isa<CXXThrowExpr>(S) || isa<ContinueStmt>(S) || isa<BreakStmt>(S))
      return true;
    if (const auto *C = dyn_cast<CompoundStmt>(S))
      return !C->body_empty() && exits(C->body_back());
    return false;
  }

  // "if (capturing) return;" leaves the rest of the block non-capturing.
  void visitEarlyExits(const CompoundStmt *CS) {
    for (auto It = CS->body_begin(); It != CS->body_end(); ++It) {
      const auto *If = dyn_cast<IfStmt>(*It);
      if (!If || If->getElse() || !exits(If->getThen()))
        continue;
      auto P = polarity(If->getCond());
      if (P && *P && std::next(It) != CS->body_end())
        Ranges.push_back(
            {offsetOf(SM, (*std::next(It))->getBeginLoc()), offsetOf(SM, CS->getRBracLoc())});
    }
  }

  const CaptureSpec &Spec;
  ASTContext &Ctx;
  const SourceManager &SM;
  int Depth;
  const FunctionDecl *Current = nullptr; // the helper being read, not to be entered again
  std::set<const ValueDecl *> StatusVars;
  std::vector<std::pair<unsigned, unsigned>> Ranges;
};

} // namespace

std::vector<std::pair<unsigned, unsigned>>
findGuardedRanges(const FunctionDecl *F, const CaptureSpec &Spec, ASTContext &Ctx) {
  return GuardFinder(Spec, Ctx).withCurrent(F).run(F);
}

} // namespace graphsafe::lint
