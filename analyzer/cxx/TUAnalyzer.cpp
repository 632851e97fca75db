#include "TUAnalyzer.h"

#include "AstUtil.h"
#include "CallableStores.h"
#include "CaptureRegionFinder.h"
#include "ConstructedClasses.h"
#include "ObjectOwners.h"
#include "StoredBefore.h"
#include "checks/Check.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Index/USRGeneration.h"

#include <fmt/format.h>

#include <set>

namespace graphsafe::lint {

using namespace clang;

namespace {

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Buf;
  if (index::generateUSRForDecl(D, Buf))
    return "";
  return Buf.str().str();
}

// Every function definition whose body is user code, including template
// instantiations and lambda call operators.
class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  explicit FunctionCollector(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  // Library code is not walked at all: with a preamble its declarations stay
  // unread on disk, which is most of what the preamble saves.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && isLibraryCode(SM, D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitFunctionDecl(FunctionDecl *F) {
    add(F);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    add(L->getCallOperator());
    if (auto *T = L->getCallOperator()->getDescribedFunctionTemplate())
      for (FunctionDecl *Spec : T->specializations())
        add(Spec);
    return true;
  }

  // Namespace-scope and static member variables with initialisers: an
  // interface table (`static const iface_t cuda_iface = {fn_a, fn_b}`) stores
  // its callables there, outside any function.
  bool VisitVarDecl(VarDecl *V) {
    if (V->hasGlobalStorage() && !V->isStaticLocal() && V->getInit())
      Globals.push_back(V);
    return true;
  }

  std::vector<const FunctionDecl *> Functions;
  std::vector<const VarDecl *> Globals;

private:
  void add(const FunctionDecl *F) {
    if (!F || !F->doesThisDeclarationHaveABody() || !F->getBody() || F->isDependentContext() ||
        F->isInvalidDecl())
      return;
    SourceLocation L = SM.getExpansionLoc(F->getLocation());
    if (L.isInvalid() || isLibraryCode(SM, L) || F->hasAttr<CUDAGlobalAttr>() ||
        (F->hasAttr<CUDADeviceAttr>() && !F->hasAttr<CUDAHostAttr>()))
      return;
    if (Seen.insert(F).second)
      Functions.push_back(F);
  }

  const SourceManager &SM;
  std::set<const FunctionDecl *> Seen;
};

class Analyzer : public ASTConsumer {
public:
  Analyzer(const RuleSet &Rules, TUSummary &Out) : Rules(Rules), Out(Out) {
    for (const auto &R : Rules.Rules)
      for (const auto &C : R.Match)
        if (C.K == MatchClause::Kind::Check)
          for (const auto &N : C.Names)
            CheckRules[N] = &R;
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    FunctionCollector Collector(Ctx);
    Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
    CaptureRegionFinder Finder(Rules.Capture, Ctx);
    Finder.analyze(Collector.Functions);

    TUFacts Facts;
    for (const FunctionDecl *F : Collector.Functions) {
      collectMutations(F->getBody(), Facts.Mutations);
      collectGpuConsumed(F->getBody(), Facts);
      collectRegisteredGenerators(F->getBody(), Facts);
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F))
        for (const CXXCtorInitializer *Init : Ctor->inits())
          if (Init->isMemberInitializer() && Init->isWritten())
            Facts.FieldInits[Init->getMember()] = Init->getInit();
    }
    for (const FunctionDecl *F : Collector.Functions) {
      Stores.collect(F);
      collectThreadEntries(F, Ctx.getSourceManager());
    }
    for (const VarDecl *V : Collector.Globals)
      Stores.collectGlobal(V);
    collectClassFacts(Collector.Functions, Collector.Globals, usrOf, Out);
    auto Checks = makeAllChecks(Rules);
    for (const FunctionDecl *F : Collector.Functions) {
      FunctionSummary S;
      S.Usr = usrOf(F);
      if (S.Usr.empty())
        continue;
      S.Name = qualifiedName(F);
      S.Loc = toLoc(Ctx.getSourceManager(), F->getLocation());
      if (const auto *M = dyn_cast<CXXMethodDecl>(F))
        for (const CXXMethodDecl *O : M->overridden_methods())
          S.Overrides.push_back(usrOf(O));
      FunctionContext FC(F, Ctx, CheckRules, S);
      FC.Spec = &Rules.Capture;
      Finder.populate(FC);
      S.IsEntryPoint = FC.IsEntryPoint;
      std::tie(S.OpensCapture, S.ClosesCapture) = Finder.opensCloses(F);
      noteCaptures(FC, Ctx.getSourceManager());
      for (auto &C : Checks)
        C->run(FC, Facts);
      collectCalls(FC, Finder, S);
      const SourceManager &SM = Ctx.getSourceManager();
      for (const Stmt *Branch : findEarlyExits(F->getBody()))
        S.ReturnBranches.push_back({toLoc(SM, SM.getExpansionLoc(Branch->getBeginLoc())),
                                    toLoc(SM, SM.getExpansionLoc(Branch->getEndLoc()))});
      Out.Functions.push_back(std::move(S));
    }
    for (const auto &[Storage, Sources] : Stores.Storages)
      for (const ValueDecl *From : Sources)
        Out.CallableStores.emplace_back(storageKey(Storage), storageKey(From));
    for (const auto &[Storage, Callables] : Stores.Callables)
      for (const FunctionDecl *F : Callables) {
        const FunctionDecl *Def = F->getDefinition() ? F->getDefinition() : F;
        if (std::string Usr = usrOf(Def); !Usr.empty())
          Out.CallableStores.emplace_back(storageKey(Storage), Usr);
      }
  }

private:
  static void collectRegisteredGenerators(const Stmt *Body, TUFacts &Facts) {
    walkBody(Body, [&](const Stmt *S) {
      const auto *C = dyn_cast<CallExpr>(S);
      if (C && calleeOf(C) && calleeOf(C)->getName() == "register_generator_state")
        for (const Expr *A : C->arguments())
          if (const ValueDecl *D = referencedDecl(A))
            Facts.RegisteredGenerators.insert(D);
    });
  }

  // A capture begun without relaxed or thread-local mode is global: while it
  // runs, potentially unsafe calls on any other thread break it. A device-wide
  // sync on another thread breaks a capture in any mode.
  void noteCaptures(const FunctionContext &FC, const SourceManager &SM) {
    for (const CaptureEvent &Ev : FC.Events) {
      // A wrapper's own begin counts where it is called, in the mode its
      // caller passes (ModeChosen); one whose mode it does not take from its
      // caller counts where it is written.
      if (Ev.K != CaptureEvent::Begin || Ev.ViaCallee != Ev.ModeChosen || Ev.ModeParam >= 0)
        continue;
      if (!Out.AnyCapture.valid())
        Out.AnyCapture = toLoc(SM, Ev.Call->getBeginLoc());
      if (!Out.GlobalCapture.valid() && !Ev.Relaxed && !Ev.ThreadLocal)
        Out.GlobalCapture = toLoc(SM, Ev.Call->getBeginLoc());
    }
  }

  // Callables handed to a thread spawner (capture spec `thread-spawners`):
  // they run on another thread than the code around them.
  void collectThreadEntries(const FunctionDecl *F, const SourceManager &SM) {
    // A function the capture file says other threads call (`thread-entry-points`).
    if (const auto &Entries = Rules.Capture.ThreadEntryPoints;
        !Entries.empty() && F->isThisDeclarationADefinition()) {
      std::string Name = qualifiedName(F);
      std::string Usr = usrOf(F);
      if (!Usr.empty() && std::any_of(Entries.begin(), Entries.end(),
                                      [&](const std::string &P) { return nameMatches(Name, P); }))
        Out.ThreadEntries.push_back(
            {Usr, Name, toLoc(SM, F->getLocation()), CaptureContext::Ambient, {}});
    }
    const auto &Spawners = Rules.Capture.ThreadSpawners;
    if (Spawners.empty())
      return;
    auto spawner = [&](const NamedDecl *D) {
      return D && std::find(Spawners.begin(), Spawners.end(), qualifiedName(D)) != Spawners.end();
    };
    walkBody(F->getBody(), [&](const Stmt *S) {
      std::vector<const Expr *> Args;
      if (const auto *C = dyn_cast<CallExpr>(S); C && spawner(C->getDirectCallee()))
        Args.assign(C->arg_begin(), C->arg_end());
      else if (const auto *K = dyn_cast<CXXConstructExpr>(S);
               K && K->getConstructor() && spawner(K->getConstructor()->getParent()))
        Args.assign(K->arg_begin(), K->arg_end());
      for (const Expr *A : Args)
        if (const FunctionDecl *Callee = callableOf(A)) {
          const FunctionDecl *Def = Callee->getDefinition() ? Callee->getDefinition() : Callee;
          if (std::string Usr = usrOf(Def); !Usr.empty())
            Out.ThreadEntries.push_back({Usr,
                                         qualifiedName(Def),
                                         toLoc(SM, S->getBeginLoc()),
                                         CaptureContext::Ambient,
                                         {}});
        }
    });
  }

  // The key an indirect call and the stores into its storage agree on across
  // TUs: the storage's USR, or for a local one its place in this file.
  std::string storageKey(const ValueDecl *D) const {
    // A parameter is named by its function and position, which every TU that
    // sees the function agrees on (a header's setter called from many files).
    if (const auto *P = dyn_cast<ParmVarDecl>(D))
      if (const auto *F = dyn_cast_or_null<FunctionDecl>(P->getDeclContext()))
        if (std::string FnUsr = usrOf(F->getFirstDecl()); !FnUsr.empty())
          return fmt::format("storage:param:{}#{}", FnUsr, P->getFunctionScopeIndex());
    std::string Usr = usrOf(D);
    if (!Usr.empty() && isa<FunctionDecl>(D))
      return ReturnedCallables + usrOf(cast<FunctionDecl>(D)->getFirstDecl());
    if (!Usr.empty())
      return "storage:" + Usr;
    const SourceManager &SM = D->getASTContext().getSourceManager();
    return fmt::format("storage-local:{}:{}", Out.File, offsetOf(SM, D->getLocation()));
  }

  // What a call passes for the callee's callable parameters (CallEdge::Binds).
  std::vector<std::pair<std::string, std::string>> callableBinds(const CallExpr *C,
                                                                 const FunctionDecl *Callee) const {
    std::vector<std::pair<std::string, std::string>> Out;
    unsigned Shift = firstParameterArgument(C, Callee);
    for (unsigned I = 0; I < Callee->getNumParams() && I + Shift < C->getNumArgs(); ++I) {
      const ParmVarDecl *P = Callee->getParamDecl(I);
      const Expr *A = C->getArg(I + Shift);
      if (!holdsCallable(P) || isa<CXXDefaultArgExpr>(A))
        continue;
      A = handedValue(A);
      if (const FunctionDecl *F = callableOf(A)) {
        const FunctionDecl *Def = F->getDefinition() ? F->getDefinition() : F;
        if (std::string Usr = usrOf(Def); !Usr.empty())
          Out.push_back({storageKey(P), Usr});
      } else if (const auto *From = dyn_cast_or_null<ParmVarDecl>(storageOf(A));
                 From && holdsCallable(From)) {
        Out.push_back({storageKey(P), "=" + storageKey(From)});
      }
    }
    return Out;
  }

  // An expression as written, or as Clang prints it where a macro wrote it
  // (`reinterpret_cast<PFN_cuTensorMapEncodeTiled>(pfn)`).
  static std::string spelled(const Expr *E, const ASTContext &AC) {
    std::string Text = sourceText(E, AC);
    if (Text.empty()) {
      llvm::raw_string_ostream OS(Text);
      strip(E)->printPretty(OS, nullptr, PrintingPolicy(AC.getLangOpts()));
    }
    return Text;
  }

  // What an indirect call calls: `fn` of `fn(x)` through a std::function or
  // a function pointer; null for a direct call, and for a kernel launched
  // through a pointer (`f<<<g, b, 0, s>>>(args)`), which runs device code
  // only.
  static const Expr *indirectTarget(const CallExpr *C) {
    const Expr *Target = nullptr;
    if (isa<CUDAKernelCallExpr>(C))
      return nullptr;
    // `(obj.*method)(args)`: the member function pointer.
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(C))
      if (const auto *B = dyn_cast<BinaryOperator>(M->getCallee()->IgnoreParens());
          B && B->isPtrMemOp())
        return B->getRHS();
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C); Op && Op->getOperator() == OO_Call) {
      const FunctionDecl *Call = Op->getDirectCallee();
      if (Call && C->getNumArgs() > 0 &&
          Call->getASTContext().getSourceManager().isInSystemHeader(
              Call->getASTContext().getSourceManager().getExpansionLoc(Call->getLocation())))
        Target = Op->getArg(0);
    } else if (!C->getDirectCallee() && !isa<CXXMemberCallExpr>(C)) {
      Target = C->getCallee();
    }
    return Target;
  }

  // Where an indirect call reads its callee.
  const ValueDecl *indirectStorage(const CallExpr *C) const {
    const Expr *Target = indirectTarget(C);
    return Target ? storageOf(Target) : nullptr;
  }

  // `module(x)` on a torch::nn::ModuleHolder<Impl> runs Impl::forward.
  static std::vector<const FunctionDecl *> moduleForwards(const CallExpr *C) {
    std::vector<const FunctionDecl *> Out;
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
    if (!Op || Op->getOperator() != OO_Call)
      return Out;
    const auto *Holder = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        Op->getArg(0)->getType()->getAsCXXRecordDecl());
    if (!Holder || !isOrDerivesFrom(Holder, "torch::nn::ModuleHolder"))
      return Out;
    for (const auto &A : Holder->getTemplateArgs().asArray())
      if (A.getKind() == TemplateArgument::Type)
        if (const CXXRecordDecl *Impl = A.getAsType()->getAsCXXRecordDecl())
          for (const auto *M : Impl->methods())
            if (M->getName() == "forward")
              Out.push_back(M);
    return Out;
  }

  // std::make_shared<T>(args...) and its kin construct a T inside library
  // code the analysis does not enter: the call runs T's constructors that
  // take that many arguments.
  static std::vector<const FunctionDecl *> factoryConstructors(const CallExpr *C) {
    std::vector<const FunctionDecl *> Out;
    const FunctionDecl *Callee = C->getDirectCallee();
    const TemplateArgumentList *Args = Callee ? Callee->getTemplateSpecializationArgs() : nullptr;
    if (!Args || Args->size() == 0 || Args->get(0).getKind() != TemplateArgument::Type)
      return Out;
    std::string Name = Callee->getQualifiedNameAsString();
    static const std::set<std::string> Factories = {
        "std::make_shared",     "std::make_unique",
        "std::allocate_shared", "std::make_unique_for_overwrite",
        "c10::make_intrusive",  "std::__1::make_shared",
        "std::__1::make_unique"};
    if (!Factories.count(Name))
      return Out;
    const CXXRecordDecl *Record = Args->get(0).getAsType()->getAsCXXRecordDecl();
    if (!Record || !Record->hasDefinition())
      return Out;
    unsigned Given = C->getNumArgs() - (Name == "std::allocate_shared" ? 1 : 0);
    for (const CXXConstructorDecl *Ctor : Record->ctors())
      if (!Ctor->isCopyOrMoveConstructor() && Ctor->getMinRequiredArguments() <= Given &&
          (Ctor->isVariadic() || Given <= Ctor->getNumParams()))
        Out.push_back(Ctor);
    return Out;
  }

  void collectCalls(FunctionContext &FC, const CaptureRegionFinder &Finder, FunctionSummary &S) {
    const SourceManager &SM = FC.sm();
    std::set<std::pair<std::string, unsigned>> Seen;
    auto edge = [&](const FunctionDecl *Callee, SourceLocation L, CaptureContext Ctx,
                    SourceLoc Begin, const CallExpr *Call = nullptr, bool HandedOn = false) {
      if (!Callee)
        return;
      if (const FunctionDecl *Def = Callee->getDefinition())
        Callee = Def;
      if (isLibraryCode(SM, Callee->getLocation()) || Callee->hasAttr<CUDAGlobalAttr>())
        return;
      CallEdge E;
      E.CalleeUsr = usrOf(Callee);
      if (E.CalleeUsr.empty() || !Seen.insert({E.CalleeUsr, offsetOf(SM, L)}).second)
        return;
      // Declared here but defined in no file this TU sees: its body may be in
      // another TU; if none has it, the walk cannot follow it (--explain-reach).
      E.Opaque = !Callee->hasBody() && !Callee->isDefaulted();
      E.PureVirtual = Callee->isPureVirtual();
      E.Exact = callsNamedMethodOnly(Call, FC.function());
      auto [Opens, Closes] = Finder.opensCloses(Callee);
      E.EffectSeen = Opens || Closes;
      E.CalleeName = qualifiedName(Callee);
      E.Loc = toLoc(SM, L);
      E.Context = Ctx;
      E.RegionBegin = Begin;
      E.EnvGate = FC.envGateAt(L);
      E.When = FC.testsAt(L);
      E.Constants = literalArguments(Call, Callee, FC.FixedParams);
      const Region *In = FC.regionAt(L);
      for (ConstArg &A : objectArguments(Call, Callee, FC.function(), SM,
                                         In ? std::optional<unsigned>(In->Begin) : std::nullopt))
        E.Constants.push_back(std::move(A));
      E.Mechanism = FC.inMechanism(L);
      E.HandedOn = HandedOn;
      if (Call)
        E.Binds = callableBinds(Call, Callee);
      S.Calls.push_back(std::move(E));
    };
    // A host function enqueued on the stream is a host node: it runs at every
    // replay, so what it does is replayed, not dropped. Named directly or
    // through a local (`cudaHostFn_t fn = callback;`).
    std::set<const Stmt *> HostNodeFunctions;
    walkBody(FC.body(), [&](const Stmt *St) {
      const auto *C = dyn_cast<CallExpr>(St);
      const FunctionDecl *Callee = C ? C->getDirectCallee() : nullptr;
      if (!Callee || C->getNumArgs() < 2 || !Callee->getIdentifier() ||
          (Callee->getName() != "cudaLaunchHostFunc" && Callee->getName() != "cuLaunchHostFunc"))
        return;
      const Expr *Fn = C->getArg(1)->IgnoreParenImpCasts();
      HostNodeFunctions.insert(Fn);
      if (const auto *V = dyn_cast_or_null<VarDecl>(referencedDecl(Fn)); V && V->getInit())
        HostNodeFunctions.insert(strip(V->getInit()));
    });
    // Destructors the language calls with no call written: a local's at the
    // end of its block, a temporary's at the end of its expression, the
    // pointee's at `delete`. One that ends a capture is the capture's own
    // guard (CaptureRegionFinder), not code run under it.
    auto destructorEdge = [&](const CXXDestructorDecl *Dtor, SourceLocation At) {
      if (!Dtor || Finder.opensCloses(Dtor).second)
        return;
      SourceLoc Begin;
      CaptureContext Ctx = FC.contextAt(At, &Begin);
      if (Ctx == CaptureContext::Ambient || Ctx == CaptureContext::InRegion)
        edge(Dtor, At, Ctx, Begin);
    };
    ASTContext &AC = FC.function()->getASTContext();
    auto destructorsRunBy = [&](const Stmt *St) {
      if (const auto *Block = dyn_cast<CompoundStmt>(St)) {
        for (const Stmt *Child : Block->body())
          if (const auto *DS = dyn_cast<DeclStmt>(Child))
            for (const Decl *D : DS->decls())
              if (const auto *V = dyn_cast<VarDecl>(D); V && V->hasLocalStorage())
                destructorEdge(destructorRunFor(V->getType(), AC), Block->getRBracLoc());
      } else if (const auto *Del = dyn_cast<CXXDeleteExpr>(St)) {
        if (!Del->getDestroyedType().isNull())
          destructorEdge(destructorRunFor(Del->getDestroyedType(), AC), Del->getBeginLoc());
      } else if (const auto *Tmp = dyn_cast<CXXBindTemporaryExpr>(St)) {
        destructorEdge(Tmp->getTemporary()->getDestructor(), Tmp->getEndLoc());
      } else if (const auto *Reset = dyn_cast<CXXMemberCallExpr>(St);
                 Reset && Reset->getMethodDecl() && Reset->getMethodDecl()->getIdentifier() &&
                 Reset->getMethodDecl()->getName() == "reset") {
        // `owner.reset()` destroys what a std::unique_ptr held.
        if (const Expr *Obj = Reset->getImplicitObjectArgument();
            Obj && isUniquePtr(Obj->getType().getNonReferenceType()))
          destructorEdge(destructorRunFor(Obj->getType().getNonReferenceType(), AC),
                         Reset->getExprLoc());
      }
    };
    walkBody(FC.body(), [&](const Stmt *St) {
      destructorsRunBy(St);
      SourceLocation L = St->getBeginLoc();
      SourceLoc Begin;
      CaptureContext Ctx = FC.contextAt(L, &Begin);
      if (const auto *C = dyn_cast<CallExpr>(St)) {
        if (auto Arg = Finder.helperArg(C); Arg && *Arg < C->getNumArgs())
          edge(callableOf(C->getArg(*Arg)), C->getArg(*Arg)->getBeginLoc(),
               CaptureContext::InRegion, toLoc(SM, C->getBeginLoc()));
        if (Ctx == CaptureContext::Outside || Ctx == CaptureContext::Guarded)
          return;
        if (!isa<CUDAKernelCallExpr>(C))
          edge(calleeOf(C), C->getExprLoc(), Ctx, Begin, C);
        for (const FunctionDecl *Fwd : moduleForwards(C))
          edge(Fwd, C->getExprLoc(), Ctx, Begin);
        for (const FunctionDecl *Ctor : factoryConstructors(C))
          edge(Ctor, C->getExprLoc(), Ctx, Begin);
        if (const Expr *Target = indirectTarget(C)) {
          if (const FunctionDecl *Just =
                  storedJustBefore(FC.body(), Target, C, AC,
                                   [](const Expr *V) { return callableOf(handedValue(V)); })) {
            edge(Just, C->getExprLoc(), Ctx, Begin);
            return;
          }
          // A callee read from storage runs what the program stored there;
          // one read from anything else (a call's result, a cast) is unknown.
          const ValueDecl *Storage = storageOf(Target);
          CallEdge E;
          E.CalleeUsr = Storage ? storageKey(Storage)
                                : UnknownCallee + std::to_string(offsetOf(SM, C->getExprLoc()));
          E.CalleeName =
              Storage && !isa<FunctionDecl>(Storage) ? qualifiedName(Storage) : spelled(Target, AC);
          E.Dynamic = true;
          E.Loc = toLoc(SM, C->getExprLoc());
          E.Context = Ctx;
          E.RegionBegin = Begin;
          E.EnvGate = FC.envGateAt(C->getExprLoc());
          E.When = FC.testsAt(C->getExprLoc());
          E.Mechanism = FC.inMechanism(C->getExprLoc());
          if (Seen.insert({E.CalleeUsr, offsetOf(SM, C->getExprLoc())}).second)
            S.Calls.push_back(std::move(E));
        }
        return;
      }
      if (Ctx == CaptureContext::Outside || Ctx == CaptureContext::Guarded)
        return;
      if (const auto *Ctor = dyn_cast<CXXConstructExpr>(St))
        edge(Ctor->getConstructor(), L, Ctx, Begin);
      else if (Stores.storedAway(St))
        return;
      else if (const auto *Lam = dyn_cast<LambdaExpr>(St))
        edge(Lam->getCallOperator(), L, Ctx, Begin, nullptr, true);
      else if (const auto *Ref = dyn_cast<DeclRefExpr>(St))
        if (const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl());
            F && !HostNodeFunctions.count(Ref))
          edge(F, L, Ctx, Begin, nullptr, true);
    });
  }

  const RuleSet &Rules;
  TUSummary &Out;
  std::map<std::string, const Rule *> CheckRules;
  CallableStoreCollector Stores;
};

} // namespace

std::unique_ptr<ASTConsumer> makeTUAnalyzer(const RuleSet &Rules, TUSummary &Out) {
  return std::make_unique<Analyzer>(Rules, Out);
}

} // namespace graphsafe::lint
