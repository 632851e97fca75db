#include "ObjectOwners.h"

#include "AstUtil.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace graphsafe::lint {

using namespace clang;

namespace {

constexpr int MaxDepth = 8;

// The function whose frame is asked about, and where a capture region of its
// own begins, if the expression sits in one.
struct Scope {
  const FunctionDecl *Fn;
  const SourceManager *SM = nullptr;
  std::optional<unsigned> RegionBegin;
};

ObjectOwner ownerOf(const Expr *E, const Scope &S, int Depth);

// `this` names the method's object; in a lambda it is the enclosing class's
// object, captured, not the closure a call of the lambda hands on.
bool hasOwnObject(const FunctionDecl *Fn) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(Fn);
  return M && M->isInstance() && !M->getParent()->isLambda();
}

// A cast that designates the same object (or a base or derived part of it).
bool keepsTheObject(CastKind K) {
  return K == CK_NoOp || K == CK_DerivedToBase || K == CK_UncheckedDerivedToBase ||
         K == CK_BaseToDerived;
}

// The owner of the object a pointer expression points at.
ObjectOwner pointeeOwner(const Expr *P, const Scope &S, int Depth) {
  if (!P || Depth > MaxDepth)
    return {};
  P = P->IgnoreParens();
  if (const auto *C = dyn_cast<CastExpr>(P)) {
    if (C->getCastKind() == CK_ArrayToPointerDecay)
      return ownerOf(C->getSubExpr(), S, Depth + 1);
    bool Same = keepsTheObject(C->getCastKind()) || C->getCastKind() == CK_LValueToRValue ||
                C->getCastKind() == CK_BitCast;
    return Same ? pointeeOwner(C->getSubExpr(), S, Depth + 1) : ObjectOwner{};
  }
  if (isa<CXXThisExpr>(P))
    return hasOwnObject(S.Fn) ? ObjectOwner{ObjectOwner::Param, ObjectParam} : ObjectOwner{};
  if (const auto *U = dyn_cast<UnaryOperator>(P); U && U->getOpcode() == UO_AddrOf)
    return ownerOf(U->getSubExpr(), S, Depth + 1);
  if (const auto *R = dyn_cast<DeclRefExpr>(P))
    if (const auto *Parm = dyn_cast<ParmVarDecl>(R->getDecl());
        Parm && Parm->getType()->isPointerType() && Parm->getDeclContext() == S.Fn)
      return {ObjectOwner::Param, Parm->getFunctionScopeIndex()};
  return {};
}

ObjectOwner ownerOf(const Expr *E, const Scope &S, int Depth) {
  if (!E || Depth > MaxDepth)
    return {};
  E = E->IgnoreParens();
  if (const auto *C = dyn_cast<CastExpr>(E)) {
    return keepsTheObject(C->getCastKind()) ? ownerOf(C->getSubExpr(), S, Depth + 1)
                                            : ObjectOwner{};
  }
  if (isa<MaterializeTemporaryExpr, CXXBindTemporaryExpr, CXXConstructExpr>(E) ||
      (E->isPRValue() && E->getType()->isRecordType()))
    return {ObjectOwner::Local};
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return M->isArrow() ? pointeeOwner(M->getBase(), S, Depth + 1)
                        : ownerOf(M->getBase(), S, Depth + 1);
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return pointeeOwner(A->getBase(), S, Depth + 1);
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
    return pointeeOwner(U->getSubExpr(), S, Depth + 1);
  // An element of a container is the container's.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() > 0)
    return ownerOf(Op->getArg(0), S, Depth + 1);
  const auto *R = dyn_cast<DeclRefExpr>(E);
  const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  if (!V || V->getDeclContext() != S.Fn)
    return {};
  bool Reference = V->getType()->isReferenceType();
  if (const auto *Parm = dyn_cast<ParmVarDecl>(V); Parm && Reference)
    return {ObjectOwner::Param, Parm->getFunctionScopeIndex()};
  if (!isa<ParmVarDecl>(V) && (!V->isLocalVarDecl() || V->isStaticLocal()))
    return {};
  // A local reference is what it was bound to; a reference cannot be reseated.
  if (Reference)
    return ownerOf(V->getInit(), S, Depth + 1);
  // Made before a capture this function begins, it lives on through the
  // replays after it: the capturing function's own state.
  if (S.RegionBegin && offsetOf(*S.SM, V->getLocation()) < *S.RegionBegin)
    return {};
  return {ObjectOwner::Local};
}

void add(std::vector<ConstArg> &Out, unsigned Index, ObjectOwner O, const FunctionDecl *Caller) {
  // What a constructor or destructor does to its own object, through the
  // methods it calls too, is building or tearing it down.
  if (O.K == ObjectOwner::Param && O.Index == ObjectParam &&
      isa<CXXConstructorDecl, CXXDestructorDecl>(Caller))
    O.K = ObjectOwner::Local;
  ConstArg A{Index};
  A.Attr = OutlivesCall;
  A.NoneKnown = false;
  if (O.K == ObjectOwner::Local) {
    A.Truthy = false;
  } else if (O.K == ObjectOwner::Param) {
    A.From = static_cast<int>(O.Index);
    A.FromAttr = OutlivesCall;
    A.TruthKnown = false;
  } else {
    return;
  }
  Out.push_back(std::move(A));
}

} // namespace

ObjectOwner ownerOfObject(const Expr *E, const FunctionDecl *Fn) { return ownerOf(E, {Fn}, 0); }

std::optional<ParamTest> outlivesCallTest(const Expr *Target, const FunctionDecl *Fn) {
  ObjectOwner O = ownerOf(Target, {Fn}, 0);
  if (O.K != ObjectOwner::Param)
    return std::nullopt;
  ParamTest T;
  T.Index = O.Index;
  T.K = ParamTest::Kind::Truthy;
  T.Attr = OutlivesCall;
  return T;
}

std::vector<ConstArg> objectArguments(const CallExpr *C, const FunctionDecl *Callee,
                                      const FunctionDecl *Caller, const SourceManager &SM,
                                      std::optional<unsigned> RegionBegin) {
  std::vector<ConstArg> Out;
  if (!C || !Callee)
    return Out;
  Scope S{Caller, &SM, RegionBegin};
  unsigned First = 0;
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  if (Method && Method->isInstance() && !isa<CXXConstructorDecl>(Method)) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
      const auto *Member = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
      const Expr *Object = MC->getImplicitObjectArgument();
      add(Out, ObjectParam,
          Member && Member->isArrow() ? pointeeOwner(Object, S, 0) : ownerOf(Object, S, 0), Caller);
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C); Op && Op->getNumArgs() > 0) {
      add(Out, ObjectParam, ownerOf(Op->getArg(0), S, 0), Caller);
      First = 1;
    }
  }
  for (unsigned I = 0; I < Callee->getNumParams() && I + First < C->getNumArgs(); ++I) {
    QualType T = Callee->getParamDecl(I)->getType();
    const Expr *Arg = C->getArg(I + First);
    if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
      add(Out, I, ownerOf(Arg, S, 0), Caller);
    else if (T->isPointerType() && !T->getPointeeType().isConstQualified())
      add(Out, I, pointeeOwner(Arg, S, 0), Caller);
  }
  return Out;
}

} // namespace graphsafe::lint
