#include "FunctionContext.h"

#include "AstUtil.h"
#include "NotCapturedPaths.h"

#include "clang/AST/ExprCXX.h"

namespace graphsafe::lint {

using namespace clang;

void walkBody(const Stmt *S, const std::function<void(const Stmt *)> &Fn) {
  if (!S)
    return;
  Fn(S);
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    for (const Expr *Init : L->capture_inits())
      walkBody(Init, Fn);
    return;
  }
  for (const Stmt *Child : S->children())
    walkBody(Child, Fn);
}

void forEachTestedRange(
    const Stmt *Body,
    const std::function<bool(const IfStmt *, SourceLocation, SourceLocation, bool)> &Visit) {
  walkBody(Body, [&](const Stmt *S) {
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (!If->getCond()) // `if consteval`
        return;
      Visit(If, If->getThen()->getBeginLoc(), If->getThen()->getEndLoc(), true);
      if (const Stmt *Else = If->getElse())
        Visit(If, Else->getBeginLoc(), Else->getEndLoc(), false);
      return;
    }
    const auto *Block = dyn_cast<CompoundStmt>(S);
    if (!Block)
      return;
    for (const Stmt *Child : Block->body())
      if (const auto *If = dyn_cast<IfStmt>(Child);
          If && If->getCond() && !If->getElse() && leavesTheFunction(If->getThen()) &&
          Visit(If, If->getEndLoc(), Block->getRBracLoc(), false))
        break;
  });
}

void walkBodyWithScopes(const Stmt *S, const SourceManager &SM,
                        const std::function<void(const Stmt *, unsigned)> &Fn) {
  std::function<void(const Stmt *, unsigned)> Visit = [&](const Stmt *St, unsigned BlockEnd) {
    if (!St)
      return;
    if (const auto *CS = dyn_cast<CompoundStmt>(St))
      BlockEnd = offsetOf(SM, CS->getRBracLoc());
    Fn(St, BlockEnd);
    if (const auto *L = dyn_cast<LambdaExpr>(St)) {
      for (const Expr *Init : L->capture_inits())
        Visit(Init, BlockEnd);
      return;
    }
    for (const Stmt *Child : St->children())
      Visit(Child, BlockEnd);
  };
  if (S)
    Visit(S, offsetOf(SM, S->getEndLoc()));
}

const Region *FunctionContext::regionAt(SourceLocation L) const {
  unsigned Off = offsetOf(sm(), L);
  const Region *Best = nullptr;
  for (const auto &R : Regions)
    if (Off >= R.Begin && Off < R.End && (!Best || R.Begin > Best->Begin))
      Best = &R;
  return Best;
}

CaptureContext FunctionContext::contextAt(SourceLocation L, SourceLoc *RegionBegin) const {
  unsigned Off = offsetOf(sm(), L);
  for (const auto &[B, E] : Guarded)
    if (Off >= B && Off < E)
      return CaptureContext::Guarded;
  // Error paths and run-once set-up do not run in a capture that succeeds.
  if (inAny(NotCaptured, L, sm()))
    return CaptureContext::Guarded;
  if (const Region *R = regionAt(L)) {
    if (RegionBegin)
      *RegionBegin = R->BeginLoc;
    return CaptureContext::InRegion;
  }
  if (IsEntryPoint)
    return CaptureContext::InRegion;
  return Regions.empty() ? CaptureContext::Ambient : CaptureContext::Outside;
}

void FunctionContext::report(const Rule &R, SourceLocation L, const std::string &Callee,
                             std::vector<FixIt> FixIts, std::vector<Note> Notes,
                             std::vector<ParamTest> Also) {
  Site S;
  S.Context = contextAt(L, &S.RegionBegin);
  if (S.Context == CaptureContext::Outside || S.Context == CaptureContext::Guarded)
    return;
  // A capture wrapper's registry updates and "begin capture" logs are the
  // capture mechanism itself, not state the user expects replays to repeat.
  if (inMechanism(L) && R.isHostSideEffect())
    return;
  S.RuleId = R.Id;
  S.Message = R.formatMessage(Callee);
  S.Loc = toLoc(sm(), L);
  S.EnvGate = envGateAt(L);
  S.When = testsAt(L);
  S.When.insert(S.When.end(), Also.begin(), Also.end());
  S.FixIts = std::move(FixIts);
  S.Notes = std::move(Notes);
  Out.Sites.push_back(std::move(S));
}

std::vector<ParamTest> FunctionContext::testsAt(SourceLocation L) const {
  std::vector<ParamTest> Out;
  unsigned Off = offsetOf(sm(), L);
  for (const auto &G : ParamGated)
    if (Off >= G.Begin && Off < G.End)
      Out.push_back(G.Test);
  return Out;
}

std::string FunctionContext::envGateAt(SourceLocation L) const {
  unsigned Off = offsetOf(sm(), L);
  for (const auto &G : EnvGated)
    if (Off >= G.Begin && Off < G.End)
      return G.Variable;
  return "";
}

void FunctionContext::reportCheck(const std::string &CheckName, SourceLocation L,
                                  const std::string &Detail, std::vector<Note> Notes,
                                  std::vector<ParamTest> Also) {
  auto It = CheckRules.find(CheckName);
  if (It == CheckRules.end())
    return;
  report(*It->second, L, Detail, {}, std::move(Notes), std::move(Also));
}

} // namespace graphsafe::lint
