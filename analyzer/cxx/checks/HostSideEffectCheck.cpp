// Host work inside a capture runs once, at capture time; replays only re-run
// the GPU work. State that outlives the region and is changed there, or host
// scalars frozen into kernels and changed later, go silently wrong.
#include "../AstUtil.h"
#include "../CacheRefills.h"
#include "../ObjectOwners.h"
#include "Check.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <functional>
#include <set>

namespace graphsafe::lint {

using namespace clang;

namespace {

const std::set<std::string> MutatingMethods = {
    "push_back", "emplace_back", "push_front", "emplace_front", "insert",  "emplace",
    "push",      "pop",          "pop_back",   "pop_front",     "clear",   "erase",
    "append",    "resize",       "assign",     "swap",          "reserve", "store",
    "fetch_add", "fetch_sub",    "exchange"};

// Handles to captured tensors are expected to be rebound in a capture
// (`static_out = model(static_in)`), so tensors and containers of them are not host state.
bool holdsTensors(QualType T) {
  T = T.getNonReferenceType();
  if (isTensorType(T))
    return true;
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl()))
    for (const auto &Arg : Spec->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type && holdsTensors(Arg.getAsType()))
        return true;
  return false;
}

// A heap object made right here (`new T`, through casts): storing it is
// handing back what set-up made, and its fields are not yet anyone's state.
bool freshObject(const Expr *E) {
  E = strip(E);
  while (const auto *C = dyn_cast_or_null<ExplicitCastExpr>(E))
    E = strip(C->getSubExpr());
  return isa_and_nonnull<CXXNewExpr>(E);
}

// The variable or field a mutated expression ultimately changes.
const ValueDecl *mutatedDecl(const Expr *E) {
  E = strip(E);
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E))
    if (Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Star)
      return mutatedDecl(Op->getArg(0));
  if (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(E))
    return mutatedDecl(A->getBase());
  if (const auto *M = dyn_cast_or_null<MemberExpr>(E)) {
    // `params.conditional.handle = h` on a local (node parameters built on
    // the host) changes the local, however deep the member chain.
    const MemberExpr *Root = M;
    while (!Root->isArrow())
      if (const auto *Inner = dyn_cast<MemberExpr>(strip(Root->getBase())))
        Root = Inner;
      else
        break;
    if (const ValueDecl *Base = referencedDecl(Root->getBase()); Base && isa<VarDecl>(Base)) {
      if (!Root->isArrow() && !isa<CXXThisExpr>(strip(Root->getBase())))
        return Base;
      // `ret->field = v` on a local that holds an object this function just
      // made (`auto *ret = new T`): still building it, as on a local.
      if (const auto *V = cast<VarDecl>(Base); V->isLocalVarDecl() && !V->isStaticLocal())
        if (freshObject(V->getInit()))
          return Base;
    }
    return M->getMemberDecl();
  }
  return referencedDecl(E);
}

bool launchesOrCopies(const CallExpr *C) {
  if (isa<CUDAKernelCallExpr>(C))
    return true;
  const FunctionDecl *F = C->getDirectCallee();
  if (!F || !F->getIdentifier())
    return false;
  StringRef N = F->getName();
  return N.starts_with("cudaMemcpy") || N.starts_with("cudaMemset") || N.starts_with("cuMemcpy") ||
         N.starts_with("cuMemset") || N == "cudaLaunchKernel" || N == "cuLaunchKernel";
}

} // namespace

void collectGpuConsumed(const Stmt *Body, TUFacts &Facts) {
  walkBody(Body, [&](const Stmt *S) {
    const auto *C = dyn_cast<CallExpr>(S);
    if (!C || !launchesOrCopies(C))
      return;
    for (const Expr *Arg : C->arguments())
      walkBody(Arg, [&](const Stmt *X) {
        if (const auto *Call = dyn_cast<CallExpr>(X)) {
          if (const FunctionDecl *F = Call->getDirectCallee())
            Facts.GpuFeeding.insert(F->getCanonicalDecl());
        } else if (const auto *E = dyn_cast<Expr>(X)) {
          if (const ValueDecl *D = mutatedDecl(E))
            Facts.GpuConsumed.insert(D);
        }
      });
  });
}

namespace {

struct Mutation {
  const ValueDecl *Decl;
  SourceLocation Loc;
  const Expr *Target; // What is stored into, or the object a mutating method changes.
};

void forEachMutation(const Stmt *Body, const std::function<void(const Mutation &)> &Visit) {
  walkBody(Body, [&](const Stmt *S) {
    const Expr *Target = storedInto(S, /*AddressOf=*/false);
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(S);
        !Target && M && M->getMethodDecl() &&
        MutatingMethods.count(M->getMethodDecl()->getNameAsString()))
      Target = M->getImplicitObjectArgument();
    if (!Target)
      return;
    // `pack->tensors[i] = reinterpret_cast<H>(new T)`: handing back a handle
    // to an object made here, as `*out = buffer` does.
    if (const auto *B = dyn_cast<BinaryOperator>(S);
        B && B->getOpcode() == BO_Assign && freshObject(B->getRHS()))
      return;
    if (const ValueDecl *D = mutatedDecl(Target))
      Visit({D, S->getBeginLoc(), Target});
  });
}

// A constructor or destructor writing its own object's fields is building or
// tearing down that object, not changing state anyone kept.
bool buildsOwnObject(const FunctionDecl *Fn, const Expr *Target) {
  if (!isa<CXXConstructorDecl, CXXDestructorDecl>(Fn))
    return false;
  ObjectOwner O = ownerOfObject(Target, Fn);
  return O.K == ObjectOwner::Param && O.Index == ObjectParam;
}

} // namespace

// Collected once per TU: where each declaration is written.
void collectMutations(const Stmt *Body, MutationSites &Into) {
  forEachMutation(Body, [&](const Mutation &M) { Into[M.Decl].push_back(M.Loc); });
}

namespace {

class HostSideEffectCheck : public Check {
public:
  void run(FunctionContext &Ctx, const TUFacts &Facts) override {
    const SourceManager &SM = Ctx.sm();
    std::set<const ValueDecl *> LoopVars = loopVariables(Ctx.body());
    std::set<SourceLocation> Counts = countingSteps(Ctx.body());
    std::vector<CacheRefill> Refills = findCacheRefills(Ctx.body(), SM);
    // Sites in this body; lambdas report their own.
    forEachMutation(Ctx.body(), [&](const Mutation &M) {
      const ValueDecl *D = M.Decl;
      SourceLocation L = M.Loc;
      bool Counting = Counts.count(L);
      if (!Ctx.inCapture(L) || !outlivesCapture(Ctx, D, L) || holdsTensors(D->getType()) ||
          LoopVars.count(D) || !(Counting || changeMatters(Ctx, D, L, Facts)) ||
          buildsOwnObject(Ctx.function(), M.Target) ||
          (!Counting && refillsCache(Refills, M.Target, L, SM)))
        return;
      // Host state only where the object it changes outlives the call: not
      // a helper on the caller's stack, nor a size handed back by reference.
      std::vector<ParamTest> Owner;
      if (auto T = outlivesCallTest(M.Target, Ctx.function()))
        Owner.push_back(*T);
      Ctx.reportCheck(
          "host-state-mutation", L, D->getNameAsString(),
          {{"'" + D->getNameAsString() + "' is declared here", toLoc(SM, D->getLocation())}},
          std::move(Owner));
    });
    checkBakedScalars(Ctx, Facts);
  }

private:
  // Members, globals and statics outlive the capture, and so does what an
  // out-parameter points at. Locals do not: nothing can change them between
  // replays, whatever the capture set them to.
  static bool outlivesCapture(FunctionContext &, const ValueDecl *D, SourceLocation) {
    if (isa<FieldDecl>(D))
      return true;
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V)
      return false;
    if (!V->isLocalVarDecl() && !isa<ParmVarDecl>(V))
      return true; // Global or namespace-scope.
    if (V->isStaticLocal())
      return true;
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      QualType T = P->getType();
      if (!T->isReferenceType() && !T->isPointerType())
        return false;
      // Handing back a pointer or handle (`*out = buffer`, `cudaEvent_t *e`)
      // is how set-up returns what it made, not state a replay advances.
      QualType Pointee = T->getPointeeType();
      return !Pointee->isPointerType() && !Pointee->isObjCObjectPointerType();
    }
    return false;
  }

  // Whether replays dropping this change can matter. In the capturing
  // function itself, a member, global or static changed under capture is
  // state the program plainly expects to advance per step (a step counter,
  // a learning rate, a history). In code the region merely reaches
  // (allocators, caches, handle and pool bookkeeping), only a value that GPU
  // work takes (a kernel argument, what a copy uploads) matters. An entry
  // point is reached code too: the capture is its caller's (a library's C
  // API called from graphed modules, whose setters and getters are set-up).
  static bool changeMatters(FunctionContext &Ctx, const ValueDecl *D, SourceLocation L,
                            const TUFacts &Facts) {
    if (Facts.GpuConsumed.count(D) || Facts.GpuFeeding.count(Ctx.function()->getCanonicalDecl()))
      return true;
    return Ctx.regionAt(L) != nullptr;
  }

  // `++n`, `n--`, `n += 1`: a counter the program expects to advance once per
  // step, wherever the captured code bumps it.
  // `buf[n++] = v` is an append: the length of a container being filled.
  static std::set<SourceLocation> countingSteps(const Stmt *Body) {
    std::set<SourceLocation> Out, Appends;
    // walkBody visits a subscript before its index, so an append is known
    // by the time its increment is visited.
    walkBody(Body, [&](const Stmt *S) {
      if (const auto *A = dyn_cast<ArraySubscriptExpr>(S))
        if (const auto *U = dyn_cast<UnaryOperator>(A->getIdx()->IgnoreParenImpCasts());
            U && U->isIncrementDecrementOp())
          Appends.insert(U->getBeginLoc());
      if (const auto *U = dyn_cast<UnaryOperator>(S);
          U && U->isIncrementDecrementOp() && !Appends.count(U->getBeginLoc()))
        Out.insert(U->getBeginLoc());
      if (const auto *B = dyn_cast<CompoundAssignOperator>(S);
          B && (B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign))
        if (const auto *One = dyn_cast<IntegerLiteral>(B->getRHS()->IgnoreParenImpCasts());
            One && One->getValue() == 1)
          Out.insert(B->getBeginLoc());
    });
    return Out;
  }

  static std::set<const ValueDecl *> loopVariables(const Stmt *Body) {
    std::set<const ValueDecl *> Out;
    walkBody(Body, [&](const Stmt *S) {
      const auto *F = dyn_cast<ForStmt>(S);
      if (!F)
        return;
      for (const Stmt *Part : {F->getInit(), static_cast<const Stmt *>(F->getInc())})
        walkBody(Part, [&](const Stmt *X) {
          if (const auto *D = dyn_cast<DeclRefExpr>(X))
            Out.insert(D->getDecl());
          if (const auto *DS = dyn_cast<DeclStmt>(X))
            for (const Decl *Dd : DS->decls())
              if (const auto *V = dyn_cast<VarDecl>(Dd))
                Out.insert(V);
        });
    });
    return Out;
  }

  static bool isScalarHostState(const ValueDecl *D) {
    QualType T = D->getType().getNonReferenceType();
    if (!T->isArithmeticType() || T.isConstQualified())
      return false;
    if (const auto *V = dyn_cast<VarDecl>(D))
      return !V->isConstexpr();
    return isa<FieldDecl>(D);
  }

  // A call that turns host values into captured GPU work.
  static bool feedsGpu(const Stmt *S) {
    if (isa<CUDAKernelCallExpr>(S))
      return true;
    const auto *C = dyn_cast<CallExpr>(S);
    if (!C)
      return false;
    if (isTensorType(C->getType()))
      return true;
    if (const Expr *R = receiverOf(C))
      return isTensorType(R->getType());
    return false;
  }

  void checkBakedScalars(FunctionContext &Ctx, const TUFacts &Facts) {
    const SourceManager &SM = Ctx.sm();
    std::set<std::pair<const ValueDecl *, unsigned>> Seen;
    walkBody(Ctx.body(), [&](const Stmt *S) {
      if (!feedsGpu(S) || Ctx.contextAt(cast<Expr>(S)->getExprLoc()) != CaptureContext::InRegion)
        return;
      const auto *C = cast<CallExpr>(S);
      for (const Expr *A : C->arguments()) {
        // Only the argument itself or simple arithmetic on it: nested tensor
        // calls are visited on their own.
        anyDescendant(A, [&](const Stmt *X) {
          if (X != A && feedsGpu(X))
            return true;
          const auto *Ref = dyn_cast<DeclRefExpr>(X);
          const ValueDecl *D = Ref ? Ref->getDecl() : nullptr;
          if (const auto *M = dyn_cast<MemberExpr>(X))
            D = M->getMemberDecl();
          if (!D || !isScalarHostState(D))
            return false;
          const Region *R = Ctx.regionAt(X->getBeginLoc());
          if (const auto *V = dyn_cast<VarDecl>(D);
              V && R && V->isLocalVarDecl() && offsetOf(SM, V->getLocation()) >= R->Begin)
            return false;
          auto It = Facts.Mutations.find(D);
          if (It == Facts.Mutations.end())
            return false;
          for (SourceLocation M : It->second) {
            if (R && offsetOf(SM, M) >= R->Begin && offsetOf(SM, M) < R->End &&
                SM.getFileID(SM.getExpansionLoc(M)) ==
                    SM.getFileID(SM.getExpansionLoc(X->getBeginLoc())))
              continue; // Changed inside the region itself: that is host-state-mutation.
            if (Seen.insert({D, offsetOf(SM, X->getBeginLoc())}).second)
              Ctx.reportCheck("host-scalar-baked", X->getBeginLoc(), D->getNameAsString(),
                              {{"'" + D->getNameAsString() +
                                    "' changes here, but replays keep the value it had at capture",
                                toLoc(SM, M)}});
            break;
          }
          return false;
        });
      }
    });
  }
};

} // namespace

std::unique_ptr<Check> makeHostSideEffectCheck() { return std::make_unique<HostSideEffectCheck>(); }

} // namespace graphsafe::lint
