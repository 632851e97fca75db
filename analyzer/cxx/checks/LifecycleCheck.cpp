// Graph object lifecycle: one capture at a time, one capture per graph
// object (unless reset), and relaxed capture mode noted.
#include "../AstUtil.h"
#include "Check.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

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
  }

private:
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
