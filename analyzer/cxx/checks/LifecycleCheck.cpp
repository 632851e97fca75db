// Graph object lifecycle: one capture at a time, one capture per graph
// object (unless reset), and relaxed capture mode noted.
#include "../AstUtil.h"
#include "Check.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

#include <map>
#include <set>

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
        if (Ev.Alternative) {
          if (Ev.Relaxed)
            Ctx.reportCheck("relaxed-capture-mode", L, "");
          break;
        }
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
  // A throw between a begin and its end leaves the stream capturing: the end
  // call is skipped, every later CUDA call on the stream fails, and the next
  // capture on it cannot begin. An RAII scope (or a try that ends the capture
  // in its handler) does not have the problem. The begin and the end may be
  // calls of wrappers, and the throw may sit in a callee; inside a begin
  // wrapper, a throw after its begin skips the end its caller would make, and
  // inside an end wrapper, one before its end skips it.
  void checkThrowPaths(FunctionContext &Ctx) {
    const SourceManager &SM = Ctx.sm();
    MayThrow.clear(); // Declarations are this translation unit's.
    std::vector<std::pair<unsigned, unsigned>> Tries = tryRanges(Ctx.body(), SM);
    std::set<const Stmt *> EventCalls;
    for (const auto &Ev : Ctx.Events)
      EventCalls.insert(Ev.Call);
    for (const Region &R : Ctx.Regions) {
      bool Wrapper = R.Mechanism && (!R.BeginEvent || !R.EndEvent);
      if (!R.BeginEvent && !R.EndEvent)
        continue; // An RAII scope: its destructor ends the capture while unwinding.
      if (!Wrapper && (!R.BeginEvent || !R.EndEvent))
        continue;
      Thrown T;
      walkBody(Ctx.body(), [&](const Stmt *S) {
        unsigned Off = offsetOf(SM, S->getBeginLoc());
        if (T.At || Off <= R.Begin || Off >= R.End - 1 || EventCalls.count(S))
          return;
        for (const auto &[B, E] : Tries)
          if (Off >= B && Off <= E)
            return;
        T = thrownBy(S, Ctx, 0);
      });
      if (!T.At)
        continue;
      SourceLocation At = SM.getExpansionLoc(T.At->getBeginLoc());
      std::vector<Note> Notes = {
          {T.What + " may leave the capture here, skipping the end", toLoc(SM, At)}};
      if (T.Inner)
        Notes.push_back({"it throws here", toLoc(SM, SM.getExpansionLoc(T.Inner->getBeginLoc()))});
      if (R.EndEvent)
        Notes.push_back({"the capture ends here only when nothing threw",
                         toLoc(SM, R.EndEvent->Call->getBeginLoc())});
      else
        Notes.push_back({"this function returns with the capture open for its caller to end; "
                         "a throw here never gets there",
                         toLoc(SM, Ctx.body()->getEndLoc())});
      SourceLocation ReportAt =
          R.BeginEvent ? R.BeginEvent->Call->getBeginLoc() : R.EndEvent->Call->getBeginLoc();
      Ctx.reportCheck("throw-leaves-capture-open", ReportAt, T.What, std::move(Notes));
    }
  }

  struct Thrown {
    const Stmt *At = nullptr;    // The throw, or the call that may throw, in this function.
    const Stmt *Inner = nullptr; // For a call: the throw in the callee.
    std::string What;
  };

  static std::vector<std::pair<unsigned, unsigned>> tryRanges(const Stmt *Body,
                                                              const SourceManager &SM) {
    std::vector<std::pair<unsigned, unsigned>> Tries;
    walkBody(Body, [&](const Stmt *S) {
      if (const auto *T = dyn_cast<CXXTryStmt>(S))
        Tries.push_back({offsetOf(SM, T->getBeginLoc()), offsetOf(SM, T->getEndLoc())});
    });
    return Tries;
  }

  // What S throws: a throw expression, a call of a function that never
  // returns and does not end the process (a failing TORCH_CHECK's), or a call
  // of a function of this file that may throw out of its body (outside its
  // own try blocks, not declared noexcept), a few calls deep.
  Thrown thrownBy(const Stmt *S, FunctionContext &Ctx, unsigned Depth) {
    Thrown T;
    if (isa<CXXThrowExpr>(S)) {
      T.At = S;
      T.What = "a throw";
    } else if (const auto *C = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *F = C->getDirectCallee();
      if (F && F->isNoReturn() && !terminates(F)) {
        T.At = S;
        T.What = "a call of '" + qualifiedName(F) + "', which throws,";
      } else if (F && Depth < MaxThrowDepth) {
        if (const Stmt *Inner = throwInside(F, Ctx, Depth + 1)) {
          T.At = S;
          T.Inner = Inner;
          T.What = "a call of '" + qualifiedName(F) + "', which may throw,";
        }
      }
    }
    if (T.At && !T.Inner)
      if (std::string Macro = outermostMacro(T.At->getBeginLoc(), Ctx); !Macro.empty())
        T.What = "a failing '" + Macro + "'";
    return T;
  }

  // The first throw that can leave F's body, or null.
  const Stmt *throwInside(const FunctionDecl *F, FunctionContext &Ctx, unsigned Depth) {
    const FunctionDecl *Def = F->getDefinition();
    if (!Def || !Def->hasBody() || isa<CXXMethodDecl>(Def) && cast<CXXMethodDecl>(Def)->isVirtual())
      return nullptr; // Elsewhere, or an override may run instead.
    // A library's own checks (std::function's bad_function_call) guard
    // against misuse, not against the program's data.
    if (isLibraryCode(Ctx.sm(), Def->getLocation()))
      return nullptr;
    if (const auto *Proto = Def->getType()->getAs<FunctionProtoType>(); Proto && Proto->isNothrow())
      return nullptr; // A throw out of it ends the process.
    if (auto It = MayThrow.find(Def); It != MayThrow.end())
      return It->second;
    MayThrow[Def] = nullptr; // Recursion stops here.
    const SourceManager &SM = Ctx.sm();
    auto Tries = tryRanges(Def->getBody(), SM);
    const Stmt *Found = nullptr;
    walkBody(Def->getBody(), [&](const Stmt *S) {
      if (Found)
        return;
      unsigned Off = offsetOf(SM, S->getBeginLoc());
      for (const auto &[B, E] : Tries)
        if (Off >= B && Off <= E)
          return;
      Thrown T = thrownBy(S, Ctx, Depth);
      Found = T.Inner ? T.Inner : T.At;
    });
    return MayThrow[Def] = Found;
  }

  static constexpr unsigned MaxThrowDepth = 4;
  std::map<const FunctionDecl *, const Stmt *> MayThrow;

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
