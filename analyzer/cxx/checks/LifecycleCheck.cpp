// Graph object lifecycle: one capture at a time, one capture per graph
// object (unless reset), and relaxed capture mode noted.
#include "../AstUtil.h"
#include "Check.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

namespace graphsafe::lint {

using namespace clang;

namespace {

class LifecycleCheck : public Check {
public:
  void run(FunctionContext &Ctx, const TUFacts &) override {
    const SourceManager &SM = Ctx.sm();
    std::vector<const CaptureEvent *> Open;
    std::map<std::string, const CaptureEvent *> Ended;
    for (const auto &Ev : Ctx.Events) {
      SourceLocation L = Ev.Call->getBeginLoc();
      switch (Ev.K) {
      case CaptureEvent::Begin:
        if (!Open.empty())
          Ctx.reportCheck("nested-capture", L, "",
                          {{"the capture already under way began here",
                            toLoc(SM, Open.back()->Call->getBeginLoc())}});
        if (auto It = Ended.find(Ev.Key); It != Ended.end() && !Ev.Stream && !Ev.ViaCallee)
          Ctx.reportCheck("capture-begin-twice", L, Ev.Key,
                          {{"'" + Ev.Key + "' already captured a graph ending here",
                            toLoc(SM, It->second->Call->getBeginLoc())}});
        if (Ev.Relaxed)
          Ctx.reportCheck("relaxed-capture-mode", L, "");
        Open.push_back(&Ev);
        break;
      case CaptureEvent::End: {
        auto It = std::find_if(Open.rbegin(), Open.rend(),
                               [&](const CaptureEvent *B) { return B->Key == Ev.Key; });
        if (It != Open.rend())
          Open.erase(std::next(It).base());
        else if (!Open.empty())
          Open.pop_back();
        Ended[Ev.Key] = &Ev;
        break;
      }
      case CaptureEvent::Reset:
        Ended.erase(Ev.Key);
        break;
      }
    }
    checkLoops(Ctx);
    checkThrowPaths(Ctx);
  }

private:
  // A throw between an explicit begin and end leaves the stream capturing:
  // the end call is skipped, every later CUDA call on the stream fails, and
  // the next capture on it cannot begin. An RAII scope (or a try that ends the
  // capture in its handler) does not have the problem.
  void checkThrowPaths(FunctionContext &Ctx) {
    const SourceManager &SM = Ctx.sm();
    // A throw inside a try may be caught and the capture ended by the handler.
    std::vector<std::pair<unsigned, unsigned>> Tries;
    walkBody(Ctx.body(), [&](const Stmt *S) {
      if (const auto *T = dyn_cast<CXXTryStmt>(S))
        Tries.push_back({offsetOf(SM, T->getBeginLoc()), offsetOf(SM, T->getEndLoc())});
    });
    for (const Region &R : Ctx.Regions) {
      if (!R.BeginEvent || !R.EndEvent || R.BeginEvent->ViaCallee)
        continue;
      const Stmt *Thrower = nullptr;
      std::string What;
      walkBody(Ctx.body(), [&](const Stmt *S) {
        unsigned Off = offsetOf(SM, S->getBeginLoc());
        if (Thrower || Off <= R.Begin || Off >= R.End - 1)
          return;
        for (const auto &[B, E] : Tries)
          if (Off >= B && Off <= E)
            return;
        if (isa<CXXThrowExpr>(S)) {
          Thrower = S;
          What = "a throw";
        } else if (const auto *C = dyn_cast<CallExpr>(S)) {
          const FunctionDecl *F = C->getDirectCallee();
          if (F && F->isNoReturn() && !terminates(F)) {
            Thrower = S;
            What = "a call of '" + qualifiedName(F) + "', which throws,";
          }
        }
        if (Thrower)
          if (std::string Macro = outermostMacro(Thrower->getBeginLoc(), Ctx); !Macro.empty())
            What = "a failing '" + Macro + "'";
      });
      if (!Thrower)
        continue;
      SourceLocation At = SM.getExpansionLoc(Thrower->getBeginLoc());
      Ctx.reportCheck("throw-leaves-capture-open", R.BeginEvent->Call->getBeginLoc(), What,
                      {{What + " may leave the capture here, skipping the end", toLoc(SM, At)},
                       {"the capture ends here only when nothing threw",
                        toLoc(SM, R.EndEvent->Call->getBeginLoc())}});
    }
  }

  // The macro the user wrote (TORCH_CHECK, PADDLE_ENFORCE_EQ), not its insides.
  static std::string outermostMacro(SourceLocation L, FunctionContext &Ctx) {
    std::string Name;
    while (L.isMacroID()) {
      Name = Lexer::getImmediateMacroName(L, Ctx.sm(), Ctx.ast().getLangOpts()).str();
      L = Ctx.sm().getImmediateMacroCallerLoc(L);
    }
    return Name;
  }

  // Functions that end the process: nothing is left capturing after them.
  static bool terminates(const FunctionDecl *F) {
    StringRef N = F->getIdentifier() ? F->getName() : "";
    return N == "abort" || N == "exit" || N == "_Exit" || N == "quick_exit" || N == "terminate" ||
           N == "__assert_fail" || N == "__assert_rtn" || N == "_exit" || N == "trap";
  }

  // A graph object declared outside a loop and captured inside it is captured
  // again on the second iteration.
  void checkLoops(FunctionContext &Ctx) {
    const SourceManager &SM = Ctx.sm();
    walkBody(Ctx.body(), [&](const Stmt *S) {
      const Stmt *LoopBody = nullptr;
      if (const auto *F = dyn_cast<ForStmt>(S))
        LoopBody = F->getBody();
      else if (const auto *W = dyn_cast<WhileStmt>(S))
        LoopBody = W->getBody();
      else if (const auto *D = dyn_cast<DoStmt>(S))
        LoopBody = D->getBody();
      else if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
        LoopBody = R->getBody();
      if (!LoopBody)
        return;
      unsigned B = offsetOf(SM, LoopBody->getBeginLoc()), E = offsetOf(SM, LoopBody->getEndLoc());
      for (const auto &Ev : Ctx.Events) {
        if (Ev.K != CaptureEvent::Begin || Ev.ViaCallee || Ev.Stream || Ev.Offset < B ||
            Ev.Offset > E)
          continue;
        const ValueDecl *Graph = referencedDecl(receiverOf(cast<CallExpr>(Ev.Call)));
        if (!Graph)
          continue;
        unsigned DeclOff = offsetOf(SM, Graph->getLocation());
        bool DeclaredInside = !isa<FieldDecl>(Graph) && DeclOff >= B && DeclOff <= E;
        bool ResetInside =
            std::any_of(Ctx.Events.begin(), Ctx.Events.end(), [&](const CaptureEvent &R) {
              return R.K == CaptureEvent::Reset && R.Key == Ev.Key && R.Offset >= B &&
                     R.Offset <= E;
            });
        if (!DeclaredInside && !ResetInside)
          Ctx.reportCheck("capture-begin-twice", Ev.Call->getBeginLoc(), Ev.Key,
                          {{"the loop repeats the capture on the same graph object",
                            toLoc(SM, S->getBeginLoc())}});
      }
    });
  }
};

} // namespace

std::unique_ptr<Check> makeLifecycleCheck() { return std::make_unique<LifecycleCheck>(); }

} // namespace graphsafe::lint
