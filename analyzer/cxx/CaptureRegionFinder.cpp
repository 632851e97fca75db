#include "CaptureRegionFinder.h"

#include "AstUtil.h"
#include "FunctionContext.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <optional>
#include <set>

namespace graphsafe::lint {

using namespace clang;

CaptureRegionFinder::CaptureRegionFinder(const CaptureSpec &Spec, ASTContext &Ctx)
    : Spec(Spec), Ctx(Ctx) {
  for (const auto &C : Spec.Begin)
    BeginMatchers.emplace_back(C);
  for (const auto &C : Spec.End)
    EndMatchers.emplace_back(C);
}

std::string CaptureRegionFinder::keyOf(const Expr *E) const {
  if (!E)
    return "";
  if (const ValueDecl *D = referencedDecl(E))
    return qualifiedName(D);
  std::string Text = sourceText(E, Ctx);
  if (Text.rfind("this->", 0) == 0)
    Text = Text.substr(6);
  return Text;
}

static const Expr *streamArgOf(const CallExpr *C) {
  return C->getNumArgs() > 0 && isStreamType(C->getArg(0)->getType()) ? C->getArg(0) : nullptr;
}

// Whether a capture-begin call, or the mode argument of a call of a begin
// wrapper, names this mode (runtime or driver spelling).
static bool mentionsMode(const Stmt *C, StringRef Runtime, StringRef Driver) {
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(C))
    C = Default->getExpr();
  return anyDescendant(C, [&](const Stmt *S) {
    const auto *D = dyn_cast<DeclRefExpr>(S);
    return D && (D->getDecl()->getName() == Runtime || D->getDecl()->getName() == Driver);
  });
}

static void readMode(CaptureEvent &Ev, const Stmt *S) {
  Ev.Relaxed = mentionsMode(S, "cudaStreamCaptureModeRelaxed", "CU_STREAM_CAPTURE_MODE_RELAXED");
  Ev.ThreadLocal =
      mentionsMode(S, "cudaStreamCaptureModeThreadLocal", "CU_STREAM_CAPTURE_MODE_THREAD_LOCAL");
}

// The parameter of F a capture-mode argument of C names, if one does.
static int modeParameter(const CallExpr *C, const FunctionDecl *F) {
  for (const Expr *A : C->arguments())
    if (const auto *P = dyn_cast_or_null<ParmVarDecl>(referencedDecl(A));
        P && P->getDeclContext() == F &&
        P->getType().getUnqualifiedType().getAsString().find("CaptureMode") != std::string::npos)
      return static_cast<int>(P->getFunctionScopeIndex());
  return -1;
}

bool CaptureRegionFinder::isCaptureGuard(const CXXRecordDecl *R) {
  if (!R || !(R = R->getDefinition()))
    return false;
  auto [It, New] = GuardClasses.emplace(R, false);
  if (!New)
    return It->second;
  auto calls = [](const FunctionDecl *F, const std::vector<CallMatcher> &Matchers) {
    return F && F->hasBody() && anyDescendant(F->getBody(), [&](const Stmt *S) {
             const auto *C = dyn_cast<CallExpr>(S);
             return C && std::any_of(Matchers.begin(), Matchers.end(),
                                     [&](const CallMatcher &M) { return M.match(C); });
           });
  };
  const CXXDestructorDecl *Dtor = R->getDestructor();
  bool Opens = std::any_of(R->ctor_begin(), R->ctor_end(), [&](const CXXConstructorDecl *C) {
    const FunctionDecl *Def = nullptr;
    return C->hasBody(Def) && calls(Def, BeginMatchers);
  });
  const FunctionDecl *DtorDef = nullptr;
  It->second = Opens && Dtor && Dtor->hasBody(DtorDef) && calls(DtorDef, EndMatchers);
  return It->second;
}

void CaptureRegionFinder::collect(const FunctionDecl *F) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto &Events = Own[F];
  auto &Calls = CallsOf[F];
  auto &Scopes = Scoped[F];
  // Calls already listed, by place and callee: a macro expanding its
  // argument twice spells one call twice.
  std::set<std::pair<unsigned, const FunctionDecl *>> Listed;
  walkBodyWithScopes(F->getBody(), SM, [&](const Stmt *S, unsigned BlockEnd) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D)) {
          bool Scoped = isCaptureGuard(V->getType()->getAsCXXRecordDecl());
          for (const auto &T : Spec.Scoped)
            Scoped = Scoped || typeIsOrDerivesFrom(V->getType(), T);
          if (Scoped)
            Scopes.push_back({offsetOf(SM, V->getLocation()), BlockEnd, DS});
        }
    }
    if (const auto *C = dyn_cast<CallExpr>(S)) {
      unsigned Off = offsetOf(SM, C->getBeginLoc());
      const Expr *Recv = receiverOf(C);
      const Expr *Stream = streamArgOf(C);
      std::string Key = Recv ? keyOf(Recv) : keyOf(Stream);
      // A checking macro that expands its argument twice (`if ((x) !=
      // cudaSuccess) ... cudaGetErrorString(x)`) spells one call twice: the
      // copy on the failure path is no second begin or end.
      auto spelledAgain = [&](CaptureEvent::Kind K) {
        return std::any_of(Events.begin(), Events.end(), [&](const CaptureEvent &E) {
          return E.Offset == Off && E.K == K && E.Call != C;
        });
      };
      bool Matched = false;
      for (const auto &M : BeginMatchers)
        if (!Matched && M.match(C)) {
          Matched = true;
          if (!spelledAgain(CaptureEvent::Begin)) {
            CaptureEvent Ev{CaptureEvent::Begin, Off, C, Key, Stream};
            readMode(Ev, C);
            if (!Ev.Relaxed && !Ev.ThreadLocal)
              Ev.ModeParam = modeParameter(cast<CallExpr>(C), F);
            Events.push_back(Ev);
          }
        }
      for (const auto &M : EndMatchers)
        if (!Matched && M.match(C)) {
          Matched = true;
          if (!spelledAgain(CaptureEvent::End))
            Events.push_back({CaptureEvent::End, Off, C, Key, Stream});
        }
      if (!Matched && Recv && calleeOf(C) && calleeOf(C)->getName() == "reset" &&
          isa<CXXMemberCallExpr>(C))
        Events.push_back({CaptureEvent::Reset, Off, C, Key});
      if (!Matched && calleeOf(C) && Listed.insert({Off, calleeOf(C)}).second)
        Calls.push_back({Off, C});
    }
  });
}

std::vector<CaptureEvent> CaptureRegionFinder::eventsWithCallees(const FunctionDecl *F) const {
  std::vector<CaptureEvent> Out = Own.at(F);
  for (const auto &[Off, C] : CallsOf.at(F)) {
    const FunctionDecl *Callee = calleeOf(cast<CallExpr>(C));
    const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
    auto It = Def ? Effects.find(Def) : Effects.end();
    if (It == Effects.end() || Def == F)
      continue;
    for (const auto &K : It->second.Closes)
      Out.push_back({CaptureEvent::End, Off, C, K, nullptr, true});
    for (const auto &K : It->second.Opens) {
      CaptureEvent Ev{CaptureEvent::Begin, Off, C, K, nullptr, true};
      // The wrapper begins in the mode this call passes it.
      const auto *Call = cast<CallExpr>(C);
      static const std::vector<CaptureEvent> NoEvents;
      auto Inside = Own.find(Def);
      for (const CaptureEvent &Inner : Inside != Own.end() ? Inside->second : NoEvents)
        if (Inner.K == CaptureEvent::Begin && Inner.ModeParam >= 0) {
          if (unsigned I =
                  static_cast<unsigned>(Inner.ModeParam) + firstParameterArgument(Call, Def);
              I < Call->getNumArgs()) {
            readMode(Ev, Call->getArg(I));
            Ev.ModeChosen = true;
            if (!Ev.Relaxed && !Ev.ThreadLocal)
              Ev.ModeParam = modeParameter(Call, F);
          }
          break;
        }
      Out.push_back(Ev);
    }
  }
  std::stable_sort(Out.begin(), Out.end(), [](const CaptureEvent &A, const CaptureEvent &B) {
    return A.Offset < B.Offset;
  });
  for (size_t I = 0; I < Out.size(); ++I)
    for (size_t J = 0; J < I && Out[I].K == CaptureEvent::Begin && !Out[I].Alternative; ++J)
      Out[I].Alternative = Out[J].K == CaptureEvent::Begin &&
                           otherBranchStart(F->getBody(), Out[I].Call, Out[J].Call).has_value();
  return Out;
}

std::optional<unsigned> CaptureRegionFinder::otherBranchStart(const Stmt *Body, const Stmt *End,
                                                              const Stmt *Other) const {
  // Found from the body by source ranges rather than through the AST's
  // parent map, which the whole translation unit would pay for.
  const SourceManager &SM = Ctx.getSourceManager();
  const unsigned EndAt = offsetOf(SM, End->getBeginLoc());
  const unsigned OtherAt = offsetOf(SM, Other->getBeginLoc());
  auto within = [&](const Stmt *S, unsigned At) {
    return S && offsetOf(SM, S->getBeginLoc()) <= At && At <= offsetOf(SM, S->getEndLoc());
  };
  std::optional<unsigned> Start;
  unsigned Narrowest = ~0u;
  walkBody(Body, [&](const Stmt *S) {
    const Stmt *Then = nullptr, *Else = nullptr;
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      Then = If->getThen();
      Else = If->getElse();
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
      Then = CO->getTrueExpr();
      Else = CO->getFalseExpr();
    }
    if (!Then || !Else)
      return;
    const Stmt *Mine = within(Then, EndAt) && within(Else, OtherAt)   ? Then
                       : within(Else, EndAt) && within(Then, OtherAt) ? Else
                                                                      : nullptr;
    unsigned Width = offsetOf(SM, S->getEndLoc()) - offsetOf(SM, S->getBeginLoc());
    if (Mine && Width < Narrowest) {
      Narrowest = Width;
      Start = offsetOf(SM, Mine->getBeginLoc());
    }
  });
  return Start;
}

std::optional<CaptureRegionFinder::AlternativeEnd> CaptureRegionFinder::alternativeEnd(
    const Stmt *Body, const CaptureEvent &End,
    const std::vector<std::pair<const CaptureEvent *, const CaptureEvent *>> &Closed) const {
  for (auto It = Closed.rbegin(); It != Closed.rend(); ++It)
    if (It->first && It->second->Key == End.Key)
      if (auto Start = otherBranchStart(Body, End.Call, It->second->Call))
        return AlternativeEnd{It->first, *Start};
  return std::nullopt;
}

std::vector<CaptureRegionFinder::Pairing>
CaptureRegionFinder::pairEvents(const Stmt *Body, const std::vector<CaptureEvent> &Events) const {
  std::vector<Pairing> Out;
  std::vector<const CaptureEvent *> Open;
  std::vector<std::pair<const CaptureEvent *, const CaptureEvent *>> Closed;
  for (const auto &Ev : Events) {
    if (Ev.K == CaptureEvent::Begin) {
      if (!Ev.Alternative)
        Open.push_back(&Ev);
      continue;
    }
    if (Ev.K != CaptureEvent::End)
      continue;
    auto It = std::find_if(Open.rbegin(), Open.rend(),
                           [&](const CaptureEvent *B) { return B->Key == Ev.Key; });
    Pairing P{nullptr, &Ev, std::nullopt};
    if (It != Open.rend()) {
      P.Begin = *It;
      Open.erase(std::next(It).base());
    } else if (!Open.empty()) {
      P.Begin = Open.back();
      Open.pop_back();
    } else if (auto Alt = alternativeEnd(Body, Ev, Closed)) {
      // The other branch's end closed this begin on its path; on this one,
      // the capture runs from the begin to this end, this branch's code only.
      P.Begin = Alt->Begin;
      P.From = Alt->BranchStart;
    }
    if (P.Begin)
      Closed.push_back({P.Begin, &Ev});
    Out.push_back(P);
  }
  for (const CaptureEvent *B : Open)
    Out.push_back({B, nullptr, std::nullopt});
  return Out;
}

CaptureRegionFinder::Effect
CaptureRegionFinder::effectOf(const Stmt *Body, const std::vector<CaptureEvent> &Events) const {
  Effect E;
  for (const Pairing &P : pairEvents(Body, Events)) {
    if (!P.End)
      E.Opens.push_back(P.Begin->Key);
    else if (!P.Begin)
      E.Closes.push_back(P.End->Key);
  }
  return E;
}

void CaptureRegionFinder::analyze(const std::vector<const FunctionDecl *> &Functions) {
  for (const FunctionDecl *F : Functions)
    collect(F);
  // Openers and closers feed their callers; a few rounds cover realistic
  // wrapper depth, and the bound keeps recursion from looping.
  for (int Round = 0; Round < 4; ++Round) {
    bool Changed = false;
    for (const FunctionDecl *F : Functions) {
      Effect E = effectOf(F->getBody(), eventsWithCallees(F));
      if (E.Opens.empty() && E.Closes.empty()) {
        // An earlier round, which had not yet seen a callee open, may have
        // taken this function's own end for a close of its caller's capture.
        Changed |= Effects.erase(F) > 0;
        continue;
      }
      auto &Slot = Effects[F];
      if (!(Slot == E)) {
        Slot = E;
        Changed = true;
      }
    }
    if (!Changed)
      break;
  }
}

void CaptureRegionFinder::populate(FunctionContext &Ctx) const {
  const FunctionDecl *F = Ctx.function();
  const SourceManager &SM = this->Ctx.getSourceManager();
  Ctx.Events = eventsWithCallees(F);
  unsigned BodyBegin = offsetOf(SM, F->getBody()->getBeginLoc());
  unsigned BodyEnd = offsetOf(SM, F->getBody()->getEndLoc());

  for (const Pairing &P : pairEvents(F->getBody(), Ctx.Events)) {
    const CaptureEvent *B = P.Begin;
    Region R;
    if (!P.End) {
      // Begun here and left open for the caller.
      R.Begin = B->Offset;
      R.End = BodyEnd;
      R.BeginEvent = B;
      R.Mechanism = true;
      R.BeginLoc = toLoc(SM, B->Call->getBeginLoc());
      Ctx.Regions.push_back(R);
      continue;
    }
    R.Begin = P.From ? *P.From : B ? B->Offset : BodyBegin;
    R.End = P.End->Offset + 1; // The end call itself is still under capture.
    R.BeginEvent = B;
    R.EndEvent = P.End;
    R.Mechanism = !B;
    R.BeginLoc = B ? toLoc(SM, B->Call->getBeginLoc()) : toLoc(SM, F->getLocation());
    Ctx.Regions.push_back(R);
  }
  auto ScopedIt = Scoped.find(F);
  if (ScopedIt != Scoped.end())
    for (const auto &S : ScopedIt->second) {
      Region R;
      R.Begin = S.Begin;
      R.End = S.End;
      R.BeginLoc = toLoc(SM, S.Decl->getBeginLoc());
      Ctx.Regions.push_back(R);
    }
  Ctx.Guarded = findGuardedRanges(F, Spec, this->Ctx);
  Ctx.NotCaptured = findNotCaptured(F->getBody(), SM);
  for (const Region &R : Ctx.Regions)
    if (R.Mechanism && !R.BeginEvent && R.EndEvent)
      for (const SpelledRange &Exit : findEarlyExitsBeforeEnd(F->getBody(), R.EndEvent->Offset, SM))
        Ctx.NotCaptured.push_back(Exit);
  Ctx.EnvGated = findEnvGatedRanges(F, this->Ctx);
  Ctx.FixedParams = readOnlyScalars(F);
  Ctx.ParamGated = findParamGatedRanges(F, Ctx.FixedParams, this->Ctx);

  std::string Name = qualifiedName(F);
  for (const auto &E : Spec.EntryPoints)
    if (nameMatches(Name, E))
      Ctx.IsEntryPoint = true;
  for (const auto *A : F->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == "graphsafe::captured")
      Ctx.IsEntryPoint = true;
}

std::pair<bool, bool> CaptureRegionFinder::opensCloses(const FunctionDecl *F) const {
  auto It = Effects.find(F);
  if (It == Effects.end())
    return {false, false};
  return {!It->second.Opens.empty(), !It->second.Closes.empty()};
}

std::optional<unsigned> CaptureRegionFinder::helperArg(const CallExpr *C) const {
  const FunctionDecl *F = calleeOf(C);
  if (!F)
    return std::nullopt;
  std::string Name = qualifiedName(F);
  for (const auto &H : Spec.Helpers)
    if (nameMatches(Name, H.Name))
      return H.Arg;
  return std::nullopt;
}

} // namespace graphsafe::lint
