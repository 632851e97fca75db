// Rules that are lists of spellings: syncs, allocations, data-dependent ops,
// RNG seeding, device switches, optimizer steps. New spellings need only YAML.
#include "../AstUtil.h"
#include "../CallMatcher.h"
#include "Check.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

namespace graphsafe::lint {

using namespace clang;

namespace {

class CallSpellingCheck : public Check {
public:
  explicit CallSpellingCheck(const RuleSet &Rules) {
    for (const auto &R : Rules.Rules)
      for (const auto &C : R.Match)
        if (C.K != MatchClause::Kind::Check)
          Matchers.push_back({&R, CallMatcher(C)});
  }

  void run(FunctionContext &Ctx, const TUFacts &) override {
    walkBody(Ctx.body(), [&](const Stmt *S) {
      if (!isa<CallExpr>(S) && !isa<CXXConstructExpr>(S))
        return;
      const Rule *Last = nullptr;
      for (const auto &[R, M] : Matchers) {
        if (R == Last)
          continue;
        auto Name = M.match(S);
        if (!Name)
          continue;
        Last = R;
        Ctx.report(*R, locationOf(S), *Name, fixIts(Ctx, S, M.clause()));
      }
    });
  }

private:
  static SourceLocation locationOf(const Stmt *S) {
    // Chained stream insertions share the start of the whole expression, so
    // `std::cout << a << b` is one finding, not one per operator.
    if (isa<CXXOperatorCallExpr>(S))
      return S->getBeginLoc();
    if (const auto *C = dyn_cast<CXXConstructExpr>(S))
      return C->getBeginLoc();
    return cast<Expr>(S)->getExprLoc();
  }

  static std::vector<FixIt> fixIts(FunctionContext &Ctx, const Stmt *S, const MatchClause &C) {
    std::vector<FixIt> Out;
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!C.Fix || !Call)
      return Out;
    const SourceManager &SM = Ctx.sm();
    const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
    if (!C.Fix->RenameTo.empty() && Callee->getBeginLoc().isFileID()) {
      SourceLocation B = Callee->getBeginLoc();
      SourceLocation E =
          Lexer::getLocForEndOfToken(Callee->getEndLoc(), 0, SM, Ctx.ast().getLangOpts());
      Out.push_back({toLoc(SM, B), toLoc(SM, E), C.Fix->RenameTo});
    }
    if (!C.Fix->AppendArg.empty() && Call->getRParenLoc().isFileID()) {
      SourceLoc At = toLoc(SM, Call->getRParenLoc());
      Out.push_back({At, At, ", " + C.Fix->AppendArg});
    }
    return Out;
  }

  std::vector<std::pair<const Rule *, CallMatcher>> Matchers;
};

} // namespace

std::unique_ptr<Check> makeCallSpellingCheck(const RuleSet &Rules) {
  return std::make_unique<CallSpellingCheck>(Rules);
}

} // namespace graphsafe::lint
