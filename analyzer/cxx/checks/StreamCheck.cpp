// Streams under capture: the capture must run on a side stream, other streams
// must be forked from it with an event and joined back before the end, and
// waits must be on events recorded inside the capture.
#include "../AstUtil.h"
#include "../CallMatcher.h"
#include "Check.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <map>
#include <set>

namespace graphsafe::lint {

using namespace clang;

namespace {

const char *const DefaultStream = "<default stream>";

struct StreamOp {
  enum Kind { Guard, Set, Record, Wait, Use } K;
  unsigned Offset;
  unsigned ScopeEnd = 0; // Guards: end of the enclosing block.
  const Expr *StreamExpr = nullptr;
  std::string Event;
  SourceLocation Loc;
};

class StreamModel {
public:
  StreamModel(FunctionContext &Ctx) : Ctx(Ctx), SM(Ctx.sm()) { collect(); }

  std::vector<StreamOp> Ops;

  // The stream current at Offset: innermost guard, else the last setter.
  std::string currentAt(unsigned Offset) const {
    const StreamOp *Best = nullptr;
    for (const auto &Op : Ops) {
      if (Op.Offset > Offset)
        break;
      if (Op.K == StreamOp::Guard && Offset < Op.ScopeEnd &&
          (!Best || Best->K != StreamOp::Guard || Op.Offset > Best->Offset))
        Best = &Op;
      else if (Op.K == StreamOp::Set && (!Best || Best->K == StreamOp::Set))
        Best = &Op;
    }
    return Best ? keyAt(Best->StreamExpr, Best->Offset) : DefaultStream;
  }

  std::string keyAt(const Expr *E, unsigned Offset) const {
    E = strip(E);
    if (!E || isDefaultStream(E))
      return DefaultStream;
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *F = calleeOf(C);
      if (F && F->getName() == "getCurrentCUDAStream")
        return currentAt(Offset);
      // Each call hands out another stream of the pool (round robin): two
      // calls are two streams, whatever their spelling.
      if (F && (F->getName() == "getStreamFromPool" || F->getName() == "getStreamFromExternal"))
        return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), SM,
                                    Ctx.ast().getLangOpts())
                   .str() +
               " at line " + std::to_string(SM.getExpansionLineNumber(E->getBeginLoc()));
      if (F && (isa<CXXConversionDecl>(F) || F->getName() == "stream" || F->getName() == "unwrap"))
        if (const Expr *R = receiverOf(C))
          return keyAt(R, Offset);
    }
    // `streams[i]`: the array and the index's value where it is known.
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
      return keyAt(A->getBase(), Offset) + "[" + indexKey(A->getIdx(), Offset) + "]";
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
        Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2) // std::vector, std::array
      return keyAt(Op->getArg(0), Offset) + "[" + indexKey(Op->getArg(1), Offset) + "]";
    if (const auto *V = dyn_cast_or_null<VarDecl>(referencedDecl(E))) {
      // `auto s = getCurrentCUDAStream();` names the stream current at its declaration.
      if (V->getInit() && V->isLocalVarDecl())
        if (const auto *C = dyn_cast<CallExpr>(strip(V->getInit())))
          if (calleeOf(C) && calleeOf(C)->getName() == "getCurrentCUDAStream")
            return currentAt(offsetOf(SM, V->getLocation()));
      // `auto side = getStreamFromPool();`: a stream of its own, named by the variable.
      if (V->getInit() && V->isLocalVarDecl())
        if (const auto *C = dyn_cast<CallExpr>(strip(V->getInit())))
          if (calleeOf(C) && calleeOf(C)->getName() == "getStreamFromPool")
            return qualifiedName(V);
      // `cudaStream_t s = streams[cur];` never reassigned is another name for it.
      if (V->getInit() && V->isLocalVarDecl() && isStreamType(V->getType()) && !reassigned(V))
        return keyAt(V->getInit(), offsetOf(SM, V->getLocation()));
      return qualifiedName(V);
    }
    if (const ValueDecl *D = referencedDecl(E))
      return qualifiedName(D);
    return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), SM,
                                Ctx.ast().getLangOpts())
        .str();
  }

private:
  // Where a local is assigned, incremented or handed out by address after
  // its initialiser.
  const std::vector<unsigned> &writesOf(const VarDecl *V) const {
    auto [It, New] = Writes.emplace(V, std::vector<unsigned>{});
    if (New)
      walkBody(Ctx.body(), [&](const Stmt *S) {
        const Expr *Target = nullptr;
        if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
          Target = B->getLHS();
        else if (const auto *U = dyn_cast<UnaryOperator>(S))
          Target = U->getOpcode() == UO_AddrOf || U->isIncrementDecrementOp() ? U->getSubExpr()
                                                                              : nullptr;
        else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S); Op && Op->isAssignmentOp())
          Target = Op->getArg(0);
        if (Target && referencedDecl(Target) == V)
          It->second.push_back(offsetOf(SM, S->getBeginLoc()));
      });
    return It->second;
  }

  bool reassigned(const VarDecl *V) const { return !writesOf(V).empty(); }

  // Whether a local still holds its initialiser at Offset: nothing wrote it
  // before, and no loop around Offset writes it later.
  bool holdsInitialiser(const VarDecl *V, unsigned Offset) const {
    const auto &W = writesOf(V);
    if (std::any_of(W.begin(), W.end(), [&](unsigned At) { return At < Offset; }))
      return false;
    bool InLoop = false;
    walkBody(Ctx.body(), [&](const Stmt *S) {
      if (!isa<ForStmt>(S) && !isa<WhileStmt>(S) && !isa<DoStmt>(S) && !isa<CXXForRangeStmt>(S))
        return;
      unsigned B = offsetOf(SM, S->getBeginLoc()), E = offsetOf(SM, S->getEndLoc());
      if (Offset >= B && Offset <= E)
        InLoop = InLoop ||
                 std::any_of(W.begin(), W.end(), [&](unsigned At) { return At >= B && At <= E; });
    });
    return !InLoop;
  }

  // An index's value when it is a constant or a local that still holds a
  // constant initialiser there; "*" (any element) otherwise, so that a loop
  // forking every stream of an array and a loop using them agree.
  std::string indexKey(const Expr *Idx, unsigned Offset) const {
    Idx = strip(Idx);
    Expr::EvalResult R;
    if (Idx->EvaluateAsInt(R, Ctx.ast()))
      return std::to_string(R.Val.getInt().getExtValue());
    if (const auto *V = dyn_cast_or_null<VarDecl>(referencedDecl(Idx)))
      if (V->isLocalVarDecl() && V->getInit() && holdsInitialiser(V, Offset) &&
          V->getInit()->EvaluateAsInt(R, Ctx.ast()))
        return std::to_string(R.Val.getInt().getExtValue());
    return "*";
  }

  std::string eventKey(const Expr *E) const {
    if (const ValueDecl *D = referencedDecl(E))
      return qualifiedName(D);
    return "";
  }

  void collect() {
    static const CaptureSpec NoSpec;
    const CaptureSpec &S = Ctx.Spec ? *Ctx.Spec : NoSpec;
    walkBodyWithScopes(Ctx.body(), SM,
                       [&](const Stmt *St, unsigned BlockEnd) { visit(St, BlockEnd, S); });
    std::stable_sort(Ops.begin(), Ops.end(),
                     [](const StreamOp &A, const StreamOp &B) { return A.Offset < B.Offset; });
  }

  void visit(const Stmt *St, unsigned BlockEnd, const CaptureSpec &S) {
    if (const auto *DS = dyn_cast<DeclStmt>(St)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          for (const auto &G : S.StreamGuards)
            if (typeIsOrDerivesFrom(V->getType(), G))
              if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(strip(V->getInit()));
                  C && C->getNumArgs() > 0)
                Ops.push_back({StreamOp::Guard, offsetOf(SM, V->getLocation()), BlockEnd,
                               C->getArg(0), "", V->getLocation()});
      return;
    }
    if (const auto *K = dyn_cast<CUDAKernelCallExpr>(St)) {
      const CallExpr *Config = K->getConfig();
      if (Config && Config->getNumArgs() >= 4 && !isa<CXXDefaultArgExpr>(Config->getArg(3)))
        Ops.push_back({StreamOp::Use, offsetOf(SM, K->getBeginLoc()), 0, Config->getArg(3), "",
                       K->getBeginLoc()});
      return;
    }
    const auto *C = dyn_cast<CallExpr>(St);
    const FunctionDecl *F = calleeOf(C);
    if (!C || !F)
      return;
    std::string Name = F->getNameAsString();
    std::string Q = qualifiedName(F);
    unsigned Off = offsetOf(SM, C->getBeginLoc());
    const Expr *Recv = receiverOf(C);
    for (const auto &Setter : S.StreamSetters)
      if (nameMatches(Q, Setter) && C->getNumArgs() > 0) {
        Ops.push_back({StreamOp::Set, Off, 0, C->getArg(0), "", C->getBeginLoc()});
        return;
      }
    bool OnEvent = Recv && typeIsOrDerivesFrom(Recv->getType(), "at::cuda::CUDAEvent");
    if ((Name == "cudaEventRecord" || Name == "cudaEventRecordWithFlags" ||
         Name == "cuEventRecord" || Name == "cuEventRecordWithFlags") &&
        C->getNumArgs() >= 2) {
      Ops.push_back(
          {StreamOp::Record, Off, 0, C->getArg(1), eventKey(C->getArg(0)), C->getBeginLoc()});
      return;
    }
    if (OnEvent && (Name == "record" || Name == "recordOnce")) {
      bool HasStream = C->getNumArgs() > 0 && !isa<CXXDefaultArgExpr>(C->getArg(0));
      Ops.push_back({StreamOp::Record, Off, 0, HasStream ? C->getArg(0) : nullptr, eventKey(Recv),
                     C->getBeginLoc()});
      return;
    }
    if ((Name == "cudaStreamWaitEvent" || Name == "cuStreamWaitEvent") && C->getNumArgs() >= 2) {
      Ops.push_back(
          {StreamOp::Wait, Off, 0, C->getArg(0), eventKey(C->getArg(1)), C->getBeginLoc()});
      return;
    }
    if (OnEvent && Name == "block" && C->getNumArgs() > 0) {
      Ops.push_back({StreamOp::Wait, Off, 0, C->getArg(0), eventKey(Recv), C->getBeginLoc()});
      return;
    }
    // Any other call handed a stream runs work on it. A call through
    // operator() (`body(stream)` on a lambda or std::function) passes the
    // callable itself as argument 0, ahead of the parameters.
    const auto *M = dyn_cast<CXXMethodDecl>(F);
    unsigned Shift = isa<CXXOperatorCallExpr>(C) && M && M->isInstance() ? 1 : 0;
    for (unsigned I = 0; I < F->getNumParams() && I + Shift < C->getNumArgs(); ++I) {
      const Expr *Arg = C->getArg(I + Shift);
      if (isStreamType(F->getParamDecl(I)->getType()) && !isa<CXXDefaultArgExpr>(Arg)) {
        if (Name.find("Capture") != std::string::npos || Name == "getStreamFromPool")
          return;
        Ops.push_back({StreamOp::Use, Off, 0, Arg, "", C->getExprLoc()});
        return;
      }
    }
  }

  FunctionContext &Ctx;
  const SourceManager &SM;
  mutable std::map<const VarDecl *, std::vector<unsigned>> Writes;
};

class StreamCheck : public Check {
public:
  void run(FunctionContext &Ctx, const TUFacts &) override {
    checkDefaultLaunches(Ctx);
    if (Ctx.Regions.empty())
      return;
    StreamModel Model(Ctx);
    for (const auto &R : Ctx.Regions)
      if (R.BeginEvent && !R.BeginEvent->ViaCallee)
        checkRegion(Ctx, Model, R);
  }

private:
  void checkDefaultLaunches(FunctionContext &Ctx) {
    walkBody(Ctx.body(), [&](const Stmt *S) {
      const auto *K = dyn_cast<CUDAKernelCallExpr>(S);
      if (!K || !K->getConfig())
        return;
      const CallExpr *Config = K->getConfig();
      bool NoStream = Config->getNumArgs() < 4 || isa<CXXDefaultArgExpr>(Config->getArg(3));
      if (NoStream || isDefaultStream(Config->getArg(3)))
        Ctx.reportCheck("default-stream-kernel-launch", K->getBeginLoc(),
                        K->getDirectCallee() ? K->getDirectCallee()->getNameAsString() : "kernel");
    });
  }

  void checkRegion(FunctionContext &Ctx, const StreamModel &M, const Region &R) {
    const SourceManager &SM = Ctx.sm();
    const CaptureEvent &B = *R.BeginEvent;
    std::string Capture = B.Stream ? M.keyAt(B.Stream, B.Offset) : M.currentAt(B.Offset);
    SourceLocation BeginLoc = B.Call->getBeginLoc();
    // A function that only opens a capture (a graph held as a member) runs on
    // whatever stream its caller set, so judge the stream only where both
    // ends of the region are visible, or where a stream is named outright.
    bool WholeRegion = R.EndEvent && !R.EndEvent->ViaCallee;
    if (Capture == DefaultStream && (WholeRegion || B.Stream))
      Ctx.reportCheck("capture-on-default-stream", BeginLoc, "");

    std::map<std::string, std::pair<std::string, unsigned>> LastRecord; // event -> (stream, offset)
    std::set<std::string> Forked = {Capture}, Side, Joined, Reported;
    std::map<std::string, SourceLocation> ForkLoc;
    for (const auto &Op : M.Ops) {
      if (Op.Offset >= R.End)
        break;
      bool Inside = Op.Offset >= R.Begin;
      std::string Stream = Op.K == StreamOp::Record && !Op.StreamExpr
                               ? M.currentAt(Op.Offset)
                               : M.keyAt(Op.StreamExpr, Op.Offset);
      if (Op.K == StreamOp::Record) {
        LastRecord[Op.Event] = {Stream, Op.Offset};
        continue;
      }
      if (!Inside || !Ctx.inCapture(Op.Loc))
        continue;
      if (Op.K == StreamOp::Wait) {
        auto It = LastRecord.find(Op.Event);
        if (It == LastRecord.end())
          continue;
        if (It->second.second < R.Begin) {
          Ctx.reportCheck("wait-on-external-event", Op.Loc, Op.Event);
          continue;
        }
        const std::string &From = It->second.first;
        if (Stream != Capture && Forked.count(From)) {
          Forked.insert(Stream);
          Side.insert(Stream);
          ForkLoc.emplace(Stream, Op.Loc);
        } else if (Forked.count(Stream) && Side.count(From)) {
          Joined.insert(From);
        }
        continue;
      }
      // Guards and uses run work on the stream.
      if (Stream != DefaultStream && !Forked.count(Stream) && Reported.insert(Stream).second)
        Ctx.reportCheck("side-stream-without-fork", Op.Loc, Stream);
    }
    if (R.EndEvent && !R.EndEvent->ViaCallee) {
      const CaptureEvent &E = *R.EndEvent;
      SourceLocation EndLoc = E.Call->getBeginLoc();
      for (const auto &S : Side)
        if (!Joined.count(S))
          Ctx.reportCheck(
              "fork-not-joined", EndLoc, S,
              {{"stream '" + S + "' was forked into the capture here", toLoc(SM, ForkLoc[S])}});
      std::string EndStream = E.Stream ? M.keyAt(E.Stream, E.Offset) : M.currentAt(E.Offset);
      if (EndStream != Capture)
        Ctx.reportCheck("capture-end-other-stream", EndLoc, EndStream,
                        {{"capture began on '" + Capture + "' here", toLoc(SM, BeginLoc)}});
    }
  }
};

} // namespace

std::unique_ptr<Check> makeStreamCheck() { return std::make_unique<StreamCheck>(); }

} // namespace graphsafe::lint
