#include "CallableStores.h"

#include "AstUtil.h"
#include "FunctionContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace graphsafe::lint {

using namespace clang;

namespace {

bool inLibrary(const Decl *D) {
  return D && (D->isInStdNamespace() ||
               isLibraryCode(D->getASTContext().getSourceManager(), D->getLocation()));
}

bool hasCallOperator(const CXXRecordDecl *R) {
  if (!R || !R->hasDefinition())
    return false;
  for (const CXXMethodDecl *M : R->getDefinition()->methods())
    if (M->getOverloadedOperator() == OO_Call)
      return true;
  return false;
}

// A function pointer or reference, a member function pointer, or a class
// with a call operator.
bool callableType(QualType T) {
  T = T.getNonReferenceType();
  return T->isFunctionPointerType() || T->isFunctionType() || T->isMemberFunctionPointerType() ||
         hasCallOperator(T->getAsCXXRecordDecl());
}

// std::less, std::hash and their kin are callable too, but a map's comparator
// or a set's hasher holds none of the program's callables.
bool standardPolicy(const CXXRecordDecl *R) {
  if (!R || !R->isInStdNamespace() || !R->getIdentifier())
    return false;
  StringRef N = R->getName();
  return N != "function" && N != "move_only_function" && N != "copyable_function" &&
         N != "function_ref" && N != "packaged_task";
}

// Whether a value of type T holds callables: is one, or is a container, a
// pair, a tuple, an array or a pointer of them (`std::map<std::string,
// std::function<...>>`, `std::vector<std::pair<int, Hook>>`).
bool holdsCallables(QualType T, unsigned Depth = 0) {
  if (T.isNull() || Depth > 4)
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  if (callableType(T))
    return Depth == 0 || !standardPolicy(T->getAsCXXRecordDecl());
  if (T->isPointerType())
    return holdsCallables(T->getPointeeType(), Depth + 1);
  if (const auto *A = dyn_cast<ArrayType>(T.getTypePtr()))
    return holdsCallables(A->getElementType(), Depth + 1);
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl()))
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray()) {
      if (Arg.getKind() == TemplateArgument::Type && holdsCallables(Arg.getAsType(), Depth + 1))
        return true;
      if (Arg.getKind() == TemplateArgument::Pack)
        for (const TemplateArgument &P : Arg.pack_elements())
          if (P.getKind() == TemplateArgument::Type && holdsCallables(P.getAsType(), Depth + 1))
            return true;
    }
  return false;
}

// The parts of a library aggregate built in place (`{0, hook}` for a
// std::pair, `std::make_pair(k, hook)`, `std::tuple(a, hook)`, an initializer
// list): a container of them holds each part.
std::vector<const Expr *> aggregateParts(const Expr *E) {
  std::vector<const Expr *> Out;
  if (const auto *L = dyn_cast<CXXStdInitializerListExpr>(E))
    E = strip(L->getSubExpr());
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    const RecordDecl *R = IL->getType()->getAsRecordDecl();
    if (!R || inLibrary(R))
      Out.assign(IL->inits().begin(), IL->inits().end());
  } else if (const auto *K = dyn_cast<CXXConstructExpr>(E)) {
    if (K->getNumArgs() >= 2 && inLibrary(K->getConstructor()))
      Out.assign(K->arg_begin(), K->arg_end());
  } else if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *F = C->getDirectCallee();
    if (F && F->isInStdNamespace() && F->getIdentifier() &&
        (F->getName() == "make_pair" || F->getName() == "make_tuple" ||
         F->getName() == "forward_as_tuple" || F->getName() == "tie"))
      Out.assign(C->arg_begin(), C->arg_end());
  }
  return Out;
}

const CXXRecordDecl *programClass(QualType T) {
  const CXXRecordDecl *R = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  return R && R->hasDefinition() && !inLibrary(R) ? R->getDefinition() : nullptr;
}

const CXXRecordDecl *firstTypeArgument(const TemplateArgumentList *Args) {
  return Args && Args->size() > 0 && Args->get(0).getKind() == TemplateArgument::Type
             ? programClass(Args->get(0).getAsType())
             : nullptr;
}

// The program's class that library code builds in place from the arguments
// it forwards (`std::make_unique<Node>(args...)`, `nodes.emplace_back(args...)`
// into a container of Node, `std::variant`'s or `std::optional`'s in-place
// constructor), and the first of those arguments.
std::pair<const CXXRecordDecl *, unsigned> builtInPlace(const Expr *E) {
  if (const auto *K = dyn_cast<CXXConstructExpr>(E)) {
    if (K->getNumArgs() == 0 || !inLibrary(K->getConstructor()))
      return {};
    const auto *Tag = K->getArg(0)->getType()->getAsCXXRecordDecl();
    if (!Tag || !Tag->isInStdNamespace() || !Tag->getIdentifier())
      return {};
    if (Tag->getName() == "in_place_type_t")
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Tag))
        return {firstTypeArgument(&Spec->getTemplateArgs()), 1};
    if (Tag->getName() == "in_place_t")
      if (const auto *Spec =
              dyn_cast_or_null<ClassTemplateSpecializationDecl>(K->getType()->getAsCXXRecordDecl()))
        return {firstTypeArgument(&Spec->getTemplateArgs()), 1};
    return {};
  }
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *Method = M->getMethodDecl();
    if (!Method || !inLibrary(Method) || !Method->getIdentifier())
      return {};
    StringRef N = Method->getName();
    if (N != "emplace_back" && N != "emplace_front" && N != "emplace")
      return {};
    // variant::emplace<Node>(args...) names the class; a container or an
    // optional builds its element type.
    if (const CXXRecordDecl *T = firstTypeArgument(Method->getTemplateSpecializationArgs()))
      return {T, 0};
    QualType Object = M->getImplicitObjectArgument()->getType().getNonReferenceType();
    if (Object->isPointerType())
      Object = Object->getPointeeType();
    if (const auto *Spec =
            dyn_cast_or_null<ClassTemplateSpecializationDecl>(Object->getAsCXXRecordDecl()))
      return {firstTypeArgument(&Spec->getTemplateArgs()), 0};
    return {};
  }
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F || !F->getIdentifier())
      return {};
    StringRef N = F->getName();
    bool Std = F->isInStdNamespace();
    if ((Std && (N == "make_unique" || N == "make_shared" || N == "make_optional")) ||
        N == "make_intrusive")
      return {firstTypeArgument(F->getTemplateSpecializationArgs()), 0};
    if (Std && N == "allocate_shared")
      return {firstTypeArgument(F->getTemplateSpecializationArgs()), 1};
  }
  return {};
}

// Whether a constructor may take an argument of type Arg at a parameter of
// type Param: any, unless the parameter's type was deduced from the call
// that made this specialization (then it is the argument's own type).
bool mayTake(const FunctionDecl *Ctor, const ParmVarDecl *Param, const Expr *Arg) {
  if (!Ctor->getPrimaryTemplate())
    return true;
  QualType P = Param->getType().getNonReferenceType().getUnqualifiedType().getCanonicalType();
  QualType A = Arg->getType().getNonReferenceType().getUnqualifiedType().getCanonicalType();
  return P == A || !P->getAsCXXRecordDecl() || !P->getAsCXXRecordDecl()->isLambda();
}

} // namespace

const FunctionDecl *functorCall(const CXXRecordDecl *R) {
  if (!R || !R->hasDefinition() || R->isLambda() || inLibrary(R))
    return nullptr;
  const CXXMethodDecl *Found = nullptr;
  for (const CXXMethodDecl *M : R->getDefinition()->methods())
    if (M->getOverloadedOperator() == OO_Call) {
      if (Found)
        return nullptr;
      Found = M;
    }
  return Found;
}

const FunctionDecl *callableOf(const Expr *E) {
  E = strip(E);
  if (const auto *L = dyn_cast_or_null<LambdaExpr>(E))
    return L->getCallOperator();
  if (const auto *K = dyn_cast_or_null<CXXConstructExpr>(E))
    return functorCall(K->getType()->getAsCXXRecordDecl());
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    return callableOf(U->getSubExpr());
  // std::bind(f, ...), std::bind_front(f, ...), std::mem_fn(&C::m): calling
  // the result calls f.
  if (const auto *C = dyn_cast_or_null<CallExpr>(E); C && C->getNumArgs() > 0)
    if (const FunctionDecl *F = C->getDirectCallee();
        F && F->isInStdNamespace() && F->getIdentifier() &&
        (F->getName() == "bind" || F->getName() == "bind_front" || F->getName() == "bind_back" ||
         F->getName() == "mem_fn"))
      return callableOf(handedValue(C->getArg(0)));
  if (const ValueDecl *D = referencedDecl(E)) {
    if (const auto *F = dyn_cast<FunctionDecl>(D))
      return F;
    if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit())
      if (const auto *L = dyn_cast<LambdaExpr>(strip(V->getInit())))
        return L->getCallOperator();
  }
  return nullptr;
}

const ValueDecl *storageOf(const Expr *E) {
  E = strip(E);
  if (!E)
    return nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && (Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Star ||
             Op->getOperator() == OO_Arrow))
    return storageOf(Op->getArg(0));
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return storageOf(A->getBase());
  // A function of the program returning callables (`auto hook = makeHook();`):
  // what its returns give, in whichever TU defines it. It is its own storage.
  if (const auto *C = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *F = C->getDirectCallee();
        F && !inLibrary(F) && holdsCallables(F->getReturnType()))
      return F;
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(E)) // hooks.at(i), hooks.front()
    return storageOf(M->getImplicitObjectArgument());
  // A library element's part (`entry.second`, `it->second`): the element.
  if (const auto *M = dyn_cast<MemberExpr>(E);
      M && isa<FieldDecl>(M->getMemberDecl()) && inLibrary(M->getMemberDecl()))
    return storageOf(M->getBase());
  // std::get<1>(entry), std::ref(hook).
  if (const auto *C = dyn_cast<CallExpr>(E); C && C->getNumArgs() == 1)
    if (const FunctionDecl *F = C->getDirectCallee();
        F && F->isInStdNamespace() && F->getIdentifier() &&
        (F->getName() == "get" || F->getName() == "ref" || F->getName() == "cref"))
      return storageOf(C->getArg(0));
  return referencedDecl(E);
}

const Expr *handedValue(const Expr *E) {
  E = strip(E);
  if (const auto *C = dyn_cast_or_null<CallExpr>(E); C && C->getNumArgs() == 1)
    if (const FunctionDecl *F = C->getDirectCallee();
        F && F->isInStdNamespace() && F->getIdentifier() &&
        (F->getName() == "move" || F->getName() == "forward"))
      return handedValue(C->getArg(0));
  if (const auto *Ctor = dyn_cast_or_null<CXXConstructExpr>(E);
      Ctor && Ctor->getNumArgs() == 1 && !functorCall(Ctor->getType()->getAsCXXRecordDecl()))
    return handedValue(Ctor->getArg(0));
  return E;
}

bool holdsCallable(const ValueDecl *D) { return callableType(D->getType()); }

void CallableStoreCollector::collect(const FunctionDecl *F) {
  Returning = holdsCallables(F->getReturnType()) ? F : nullptr;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isMemberInitializer()) {
        store(Init->getMember(), Init->getInit());
        // `handle_{std::in_place_type<Capture>, std::forward<C>(work)}`.
        collectStoresIn(Init->getInit());
      }
  collectStoresIn(F->getBody());
  Returning = nullptr;
}

void CallableStoreCollector::collectGlobal(const VarDecl *V) {
  store(V, V->getInit());
  collectStoresIn(V->getInit());
}

void CallableStoreCollector::store(const ValueDecl *Into, const Expr *Value) {
  if (!Into || !Value)
    return;
  Value = handedValue(Value);
  if (const auto *Cond = dyn_cast_or_null<ConditionalOperator>(Value)) {
    store(Into, Cond->getTrueExpr());
    store(Into, Cond->getFalseExpr());
    return;
  }
  if (const FunctionDecl *F = callableOf(Value)) {
    Callables[Into].insert(F);
    // Kept in a member or a global (a C API's table of function pointers
    // filled in a constructor): it runs where that storage is called, which
    // this store tells; naming it here runs nothing here.
    const auto *Var = dyn_cast<VarDecl>(Into);
    if (isa<FieldDecl>(Into) || (Var && Var->hasGlobalStorage())) {
      const Expr *Named = strip(Value);
      if (const auto *U = dyn_cast<UnaryOperator>(Named); U && U->getOpcode() == UO_AddrOf)
        Named = strip(U->getSubExpr());
      StoredAway.insert(Named);
    }
    return;
  }
  if (std::vector<const Expr *> Parts = aggregateParts(Value); !Parts.empty()) {
    for (const Expr *Part : Parts)
      store(Into, Part);
    return;
  }
  // A parameter or another storage handed on (`OnStep = std::move(cb)`), or
  // an element read back (`Hook &h = hooks[0]`, `auto it = named.find(k)`):
  // whatever was put there reaches Into too.
  if (const ValueDecl *From = storageOf(Value);
      From && From != Into && holdsCallables(From->getType()))
    Storages[Into].insert(From);
}

void CallableStoreCollector::storeArguments(const FunctionDecl *Callee,
                                            llvm::ArrayRef<const Expr *> Args) {
  if (!Callee)
    return;
  for (unsigned I = 0; I < Callee->getNumParams() && I < Args.size(); ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    if (holdsCallable(P) && !isa<CXXDefaultArgExpr>(Args[I]))
      store(P, Args[I]);
  }
}

void CallableStoreCollector::storeIntoConstructors(const Expr *E) {
  auto [Built, First] = builtInPlace(E);
  if (!Built)
    return;
  llvm::SmallVector<const Expr *, 4> Args;
  if (const auto *C = dyn_cast<CallExpr>(E))
    Args.assign(C->arg_begin(), C->arg_end());
  else
    Args.assign(cast<CXXConstructExpr>(E)->arg_begin(), cast<CXXConstructExpr>(E)->arg_end());
  if (First >= Args.size())
    return;
  llvm::ArrayRef<const Expr *> Forwarded = llvm::ArrayRef(Args).drop_front(First);
  auto consider = [&](const CXXConstructorDecl *Ctor) {
    if (!Ctor || Ctor->isCopyOrMoveConstructor() ||
        Ctor->getMinRequiredArguments() > Forwarded.size() ||
        (!Ctor->isVariadic() && Forwarded.size() > Ctor->getNumParams()))
      return;
    for (unsigned I = 0; I < Ctor->getNumParams() && I < Forwarded.size(); ++I)
      if (holdsCallable(Ctor->getParamDecl(I)) &&
          mayTake(Ctor, Ctor->getParamDecl(I), Forwarded[I]))
        store(Ctor->getParamDecl(I), Forwarded[I]);
  };
  for (const Decl *D : Built->decls())
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(D))
      consider(Ctor);
    else if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
      for (const FunctionDecl *Spec : T->specializations())
        consider(dyn_cast<CXXConstructorDecl>(Spec));
}

void CallableStoreCollector::collectStoresIn(const Stmt *Root) {
  walkBody(Root, [&](const Stmt *S) {
    if (const auto *C = dyn_cast<CallExpr>(S); C && !isa<CXXOperatorCallExpr>(C)) {
      storeArguments(C->getDirectCallee(),
                     llvm::ArrayRef<const Expr *>(C->getArgs(), C->getNumArgs()));
      storeIntoConstructors(C);
    } else if (const auto *K = dyn_cast<CXXConstructExpr>(S)) {
      storeArguments(K->getConstructor(),
                     llvm::ArrayRef<const Expr *>(K->getArgs(), K->getNumArgs()));
      storeIntoConstructors(K);
    }
    if (const auto *Return = dyn_cast<ReturnStmt>(S); Return && Returning) {
      store(Returning, Return->getRetValue());
    } else if (const auto *For = dyn_cast<CXXForRangeStmt>(S)) {
      // `for (auto &hook : hooks)`, `for (auto &[name, fn] : named)`: the
      // element holds what the container holds.
      const VarDecl *Element = For->getLoopVariable();
      const ValueDecl *Range = storageOf(For->getRangeInit());
      if (Element && Range && holdsCallables(Range->getType())) {
        if (const auto *Bindings = dyn_cast<DecompositionDecl>(Element))
          for (const BindingDecl *B : Bindings->bindings())
            Storages[B].insert(Range);
        Storages[Element].insert(Range);
      }
    } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit())
          store(V, V->getInit());
    } else if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->getOpcode() == BO_Assign) {
      store(storageOf(B->getLHS()), B->getRHS());
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
               Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      store(storageOf(Op->getArg(0)), Op->getArg(1));
    } else if (const auto *M = dyn_cast<CXXMemberCallExpr>(S)) {
      const CXXMethodDecl *Method = M->getMethodDecl();
      StringRef N = Method && Method->getIdentifier() ? Method->getName() : "";
      if (N == "push_back" || N == "emplace_back" || N == "push_front" || N == "emplace_front" ||
          N == "insert" || N == "emplace" || N == "try_emplace" || N == "insert_or_assign" ||
          N == "push")
        for (const Expr *Arg : M->arguments())
          store(storageOf(M->getImplicitObjectArgument()), Arg);
    } else if (const auto *IL = dyn_cast<InitListExpr>(S)) {
      // `Step{name, [&] { ... }}`: a program struct's fields in order (a
      // library aggregate's parts are stored where it is put).
      if (const RecordDecl *R = IL->getType()->getAsRecordDecl(); R && !inLibrary(R)) {
        unsigned I = 0;
        for (const FieldDecl *Field : R->fields())
          if (I < IL->getNumInits())
            store(Field, IL->getInit(I++));
      }
    }
  });
}

} // namespace graphsafe::lint
