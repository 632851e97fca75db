// Rules that are lists of spellings: syncs, allocations, data-dependent ops,
// RNG seeding, device switches, optimizer steps. New spellings need only YAML.
#include "../AstUtil.h"
#include "../CallMatcher.h"
#include "Check.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

#include <cctype>
#include <map>

namespace graphsafe::lint {

using namespace clang;

namespace {

// Whether Cond compares V with something, by == (Equal) or != (!Equal).
bool compares(const Expr *Cond, const ValueDecl *V, bool Equal) {
  const auto *B = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!B || B->getOpcode() != (Equal ? BO_EQ : BO_NE))
    return false;
  return referencedDecl(strip(B->getLHS())) == V || referencedDecl(strip(B->getRHS())) == V;
}

bool returnsOrLeaves(const Stmt *S) {
  if (const auto *C = dyn_cast_or_null<CompoundStmt>(S))
    return !C->body_empty() && returnsOrLeaves(C->body_back());
  return S && (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S));
}

// The variable that indexes E (`devs[i]`, `args->gpus[i]`, `v[i]` through
// operator[]), if any.
const VarDecl *indexVarOf(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  const Expr *Index = nullptr;
  if (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(E))
    Index = A->getIdx();
  else if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E);
           Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
    Index = Op->getArg(1);
  return Index ? dyn_cast_or_null<VarDecl>(referencedDecl(Index->IgnoreParenImpCasts())) : nullptr;
}

// One thread capturing on several GPUs: `for (i...) { setDevice(devs[i]);
// work(streams[i]); }`. Each device's work goes to that device's own
// capturing stream, so the switch sends nothing outside a graph.
bool perDeviceLoop(const CallExpr *C, const std::map<const Stmt *, const Stmt *> &Parents) {
  if (C->getNumArgs() == 0)
    return false;
  const VarDecl *I = indexVarOf(C->getArg(0));
  if (!I)
    return false;
  const Stmt *Loop = nullptr;
  for (const Stmt *Cur = C; Cur;) {
    auto It = Parents.find(Cur);
    if (It == Parents.end())
      break;
    Cur = It->second;
    if (const auto *F = dyn_cast<ForStmt>(Cur);
        F && F->getInit() && anyDescendant(F->getInit(), [&](const Stmt *S) {
          const auto *D = dyn_cast<DeclStmt>(S);
          return D && D->isSingleDecl() && D->getSingleDecl() == I;
        })) {
      Loop = F->getBody();
      break;
    }
  }
  // Every stream the loop body hands to a call is that device's: streams[i].
  // A body with no stream work (per-device event or handle set-up) sends
  // nothing to a capture either.
  return Loop && !anyDescendant(Loop, [&](const Stmt *S) {
           const auto *Call = dyn_cast<CallExpr>(S);
           if (!Call || Call == C)
             return false;
           for (const Expr *A : Call->arguments())
             if (isStreamType(A->getType()) && indexVarOf(A) != I)
               return true;
           return false;
         });
}

// The switch-only-if-needed idiom: the call runs only when its argument
// differs from the value it was compared with (`if (want != current)
// set(want)`, or `if (want == current) return;` before it), the current
// device or context read just before. Under a capture the current one is
// the capture's, so the call does not run.
bool onlyIfDifferent(const CallExpr *C, const std::map<const Stmt *, const Stmt *> &Parents) {
  if (C->getNumArgs() == 0)
    return false;
  const ValueDecl *V = referencedDecl(strip(C->getArg(0)));
  if (!V)
    return false;
  const Stmt *Child = C;
  for (int Depth = 0; Depth < 8; ++Depth) {
    auto It = Parents.find(Child);
    if (It == Parents.end())
      return false;
    const Stmt *P = It->second;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if ((If->getThen() == Child && compares(If->getCond(), V, false)) ||
          (If->getElse() == Child && compares(If->getCond(), V, true)))
        return true;
    } else if (const auto *Block = dyn_cast<CompoundStmt>(P)) {
      for (const Stmt *Before : Block->body()) {
        if (Before == Child)
          break;
        if (const auto *If = dyn_cast<IfStmt>(Before); If && !If->getElse() &&
                                                       compares(If->getCond(), V, true) &&
                                                       returnsOrLeaves(If->getThen()))
          return true;
      }
    }
    Child = P;
  }
  return false;
}

void collectParents(const Stmt *S, std::map<const Stmt *, const Stmt *> &Out) {
  for (const Stmt *Child : S->children())
    if (Child) {
      Out[Child] = S;
      collectParents(Child, Out);
    }
}

// A boolean switch: `debug`, `!quiet`, `cfg.verbose && trace_` (variables and
// fields of type bool, negated or combined), not a test of a value.
bool isFlag(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot)
    return isFlag(U->getSubExpr());
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isLogicalOp())
    return isFlag(B->getLHS()) && isFlag(B->getRHS());
  return (isa<DeclRefExpr>(E) || isa<MemberExpr>(E)) && E->getType()->isBooleanType();
}

// Inside a branch taken on a boolean switch (`if (debug) log(...)`): output a
// program turns on to diagnose itself, not output each step relies on.
bool underFlag(const Stmt *S, const std::map<const Stmt *, const Stmt *> &Parents) {
  for (auto It = Parents.find(S); It != Parents.end(); It = Parents.find(It->second))
    if (const auto *If = dyn_cast<IfStmt>(It->second);
        If && It->first != If->getCond() && If->getCond() && isFlag(If->getCond()))
      return true;
  return false;
}

// Whether an invocation's spelled arguments hold this word: `VERBOSE` in
// `LOGS_DEFAULT(VERBOSE)` or `LOGS(logger, VERBOSE)`.
bool argumentsHold(StringRef Invocation, StringRef Word) {
  size_t Open = Invocation.find('(');
  if (Open == StringRef::npos)
    return false;
  for (size_t At = Invocation.find(Word, Open); At != StringRef::npos;
       At = Invocation.find(Word, At + 1)) {
    auto Ident = [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; };
    bool Starts = !Ident(Invocation[At - 1]);
    bool Ends = At + Word.size() >= Invocation.size() || !Ident(Invocation[At + Word.size()]);
    if (Starts && Ends)
      return true;
  }
  return false;
}

// Written inside one of these macros' expansions, at any depth: `VLOG(2) << x`
// expands through LOG_IF and LOG, so each level's name is asked. `NAME(WORD)`
// names a macro only when its invocation passes WORD (a severity such as
// `LOGS_DEFAULT(VERBOSE)`).
bool insideMacro(const Stmt *S, const std::vector<std::string> &Names, const SourceManager &SM,
                 const LangOptions &LO) {
  for (SourceLocation L = S->getBeginLoc(); L.isMacroID(); L = SM.getImmediateMacroCallerLoc(L)) {
    StringRef Name = Lexer::getImmediateMacroName(L, SM, LO);
    for (StringRef N : Names) {
      auto [Macro, Arg] = N.split('(');
      if (Name != Macro)
        continue;
      if (Arg.empty())
        return true;
      StringRef Invocation = Lexer::getSourceText(SM.getImmediateExpansionRange(L), SM, LO);
      if (argumentsHold(Invocation, Arg.rtrim(')')))
        return true;
    }
  }
  return false;
}

class CallSpellingCheck : public Check {
public:
  explicit CallSpellingCheck(const RuleSet &Rules) {
    for (const auto &R : Rules.Rules)
      for (const auto &C : R.Match)
        if (C.K != MatchClause::Kind::Check)
          Matchers.push_back({&R, CallMatcher(C)});
  }

  void run(FunctionContext &Ctx, const TUFacts &) override {
    std::map<const Stmt *, const Stmt *> Parents; // Built when a rule needs it.
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
        if (M.clause().When.NotIfDifferent && isa<CallExpr>(S)) {
          if (Parents.empty())
            collectParents(Ctx.body(), Parents);
          if (onlyIfDifferent(cast<CallExpr>(S), Parents) ||
              perDeviceLoop(cast<CallExpr>(S), Parents))
            continue;
        }
        if (M.clause().When.NotUnderFlag) {
          if (Parents.empty())
            collectParents(Ctx.body(), Parents);
          if (underFlag(S, Parents))
            continue;
        }
        if (!M.clause().When.NotInMacro.empty() &&
            insideMacro(S, M.clause().When.NotInMacro, Ctx.sm(), Ctx.ast().getLangOpts()))
          continue;
        // `CHECK_WITH_STREAM(x, std::cerr)`: the stream is a macro argument
        // spelled outside the macro's failure branch, while the `<<` itself
        // sits in it; where the operator is says which path runs it.
        if (isa<CXXOperatorCallExpr>(S) &&
            Ctx.contextAt(cast<Expr>(S)->getExprLoc()) == CaptureContext::Guarded)
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
