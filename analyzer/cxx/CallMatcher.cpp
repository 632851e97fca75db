#include "CallMatcher.h"

#include "AstUtil.h"
#include "StreamSinks.h"

#include "clang/AST/ExprCXX.h"

#include <array>

namespace graphsafe::lint {

// Host memory that dies with the calling frame: the address of a local (or
// of a member of one), a local array, a local container's data(), or a
// temporary. A captured copy or host node keeps the raw address, and every
// replay reaches a dead frame.
static bool pointsAtAutomaticStorage(const clang::Expr *E) {
  using namespace clang;
  E = E->IgnoreParenImpCasts();
  // A frame that launches the graph itself (capture, launch, read back, all
  // in one function) outlives its replays; one that only captures does not.
  auto launchesGraphs = [](const FunctionDecl *F) {
    return F && F->hasBody() && anyDescendant(F->getBody(), [](const Stmt *S) {
             const auto *C = dyn_cast<CallExpr>(S);
             const FunctionDecl *Callee = C ? C->getDirectCallee() : nullptr;
             if (!Callee || !Callee->getIdentifier())
               return false;
             StringRef N = Callee->getName();
             return N.starts_with("cudaGraphLaunch") || N.starts_with("cuGraphLaunch") ||
                    N == "replay";
           });
  };
  auto isAutomatic = [&](const Expr *X) {
    X = X->IgnoreParenImpCasts();
    while (const auto *M = dyn_cast<MemberExpr>(X)) {
      if (M->isArrow())
        return false;
      X = M->getBase()->IgnoreParenImpCasts();
    }
    const auto *D = dyn_cast<DeclRefExpr>(X);
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    return V && V->hasLocalStorage() && !V->getType()->isReferenceType() &&
           !launchesGraphs(dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod()));
  };
  if (isa<MaterializeTemporaryExpr>(E))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    return isa<MaterializeTemporaryExpr>(U->getSubExpr()->IgnoreParenImpCasts()) ||
           isAutomatic(U->getSubExpr());
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    return D->getType()->isArrayType() && isAutomatic(D);
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(E))
    if (const auto *F = M->getMethodDecl(); F && F->getName() == "data")
      return isAutomatic(M->getImplicitObjectArgument());
  return false;
}

using namespace clang;

namespace {

bool nameIn(const std::string &Qualified, const std::vector<std::string> &Patterns) {
  for (const auto &P : Patterns)
    if (nameMatches(Qualified, P))
      return true;
  return false;
}

unsigned explicitArgCount(const CallExpr *C, unsigned Skip) {
  unsigned N = 0;
  for (unsigned I = Skip; I < C->getNumArgs(); ++I)
    if (!isa<CXXDefaultArgExpr>(C->getArg(I)))
      ++N;
  return N;
}

bool isEmptyValue(const Expr *E) {
  if (!E || isa<CXXDefaultArgExpr>(E))
    return true;
  E = strip(E);
  if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
    return !B->getValue();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_Minus)
      if (const auto *I = dyn_cast<IntegerLiteral>(U->getSubExpr()->IgnoreParenImpCasts()))
        return I->getValue() == 1;
  if (const auto *D = referencedDecl(E))
    return D->getName() == "nullopt";
  if (const auto *C = dyn_cast<CXXConstructExpr>(E))
    return C->getNumArgs() == 0 || (C->getNumArgs() == 1 && isEmptyValue(C->getArg(0)));
  return false;
}

template <typename CallT>
const Expr *argForParam(const CallT *C, const FunctionDecl *F, const std::string &Param,
                        unsigned Shift, bool &Found) {
  Found = false;
  for (unsigned I = 0; I < F->getNumParams(); ++I) {
    if (F->getParamDecl(I)->getName() != Param)
      continue;
    Found = true;
    return I + Shift < C->getNumArgs() ? C->getArg(I + Shift) : nullptr;
  }
  return nullptr;
}

const std::array<const char *, 14> CpuFactories = {
    "empty",  "zeros",    "ones",   "full",      "rand", "randn",         "randint",
    "arange", "linspace", "tensor", "from_blob", "eye",  "empty_strided", "scalar_tensor"};

} // namespace

bool mentionsDevice(const Expr *E, const std::string &Device) {
  const char *Const = Device == "cpu" ? "kCPU" : "kCUDA";
  const char *Enum = Device == "cpu" ? "CPU" : "CUDA";
  return anyDescendant(E, [&](const Stmt *S) {
    if (const auto *D = dyn_cast<DeclRefExpr>(S)) {
      const ValueDecl *V = D->getDecl();
      if (V->getName() == Const)
        return true;
      if (isa<EnumConstantDecl>(V) && V->getName() == Enum &&
          nameMatches(qualifiedName(V), std::string("DeviceType::") + Enum))
        return true;
    }
    if (const auto *L = dyn_cast<StringLiteral>(S))
      return L->getString().starts_with(Device);
    return false;
  });
}

bool tensorOnDevice(const Expr *Tensor, const std::string &Device) {
  const Expr *E = strip(Tensor);
  if (!E)
    return false;
  auto viaCall = [&](const Expr *X) {
    X = strip(X);
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(X)) {
      std::string Name = M->getMethodDecl() ? M->getMethodDecl()->getNameAsString() : "";
      if (Name == "cpu" || Name == "cuda")
        return Name == Device;
      if (Name == "to" || Name == "pin_memory")
        return mentionsDevice(X, Device) || (Name == "pin_memory" && Device == "cpu");
    }
    if (const auto *C = dyn_cast<CallExpr>(X)) {
      if (mentionsDevice(X, Device))
        return true;
      const FunctionDecl *F = calleeOf(C);
      if (Device == "cpu" && F && !isa<CXXMethodDecl>(F) && !mentionsDevice(X, "cuda")) {
        std::string Q = qualifiedName(F);
        if (Q.rfind("at::", 0) == 0 || Q.rfind("torch::", 0) == 0)
          for (const char *Fac : CpuFactories)
            if (F->getName() == Fac)
              return true;
      }
    }
    return false;
  };
  if (viaCall(E))
    return true;
  if (const Expr *Init = initializerOf(E))
    return viaCall(Init);
  return false;
}

bool isStreamType(QualType T) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *P = T->getAs<PointerType>())
    if (const auto *R = P->getPointeeType()->getAsRecordDecl())
      return R->getName() == "CUstream_st";
  return typeIsOrDerivesFrom(T, "c10::cuda::CUDAStream") || typeIsOrDerivesFrom(T, "c10::Stream");
}

bool isDefaultStream(const Expr *E) {
  E = strip(E);
  if (!E)
    return false;
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return true;
  if (const auto *I = dyn_cast<IntegerLiteral>(E))
    return I->getValue() == 0;
  // cudaStreamLegacy expands to ((cudaStream_t)0x1).
  if (const auto *C = dyn_cast<CStyleCastExpr>(E))
    if (const auto *I = dyn_cast<IntegerLiteral>(C->getSubExpr()->IgnoreParenImpCasts()))
      return I->getValue() == 1 || I->getValue() == 0;
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    if (const FunctionDecl *F = calleeOf(C)) {
      if (F->getName() == "getDefaultCUDAStream")
        return true;
      // CUDAStream -> cudaStream_t conversion: look at the stream object.
      if (isa<CXXConversionDecl>(F) || F->getName() == "stream")
        if (const Expr *R = receiverOf(C))
          return isDefaultStream(R);
    }
  }
  if (const Expr *Init = initializerOf(E))
    if (Init != E)
      return isDefaultStream(Init);
  return false;
}

bool isBoolMask(const Expr *E, unsigned Depth) {
  static const std::array<const char *, 16> Producers = {
      "gt",          "lt",    "ge",       "le",          "eq",         "ne",
      "isnan",       "isinf", "isfinite", "logical_and", "logical_or", "logical_not",
      "logical_xor", "isin",  "greater",  "less"};
  return anyDescendant(E, [&](const Stmt *S) {
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
      switch (Op->getOperator()) {
      case OO_Less:
      case OO_Greater:
      case OO_LessEqual:
      case OO_GreaterEqual:
      case OO_EqualEqual:
      case OO_ExclaimEqual:
      case OO_Exclaim:
      case OO_Tilde:
        return isTensorType(Op->getType());
      default:
        return false;
      }
    }
    if (const auto *C = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *F = calleeOf(C);
      if (!F || !isTensorType(C->getType()))
        return false;
      for (const char *P : Producers)
        if (F->getName() == P)
          return true;
      if ((F->getName() == "to" || F->getName() == "toType") && anyDescendant(C, [](const Stmt *X) {
            const auto *D = dyn_cast<DeclRefExpr>(X);
            return D && (D->getDecl()->getName() == "kBool" || D->getDecl()->getName() == "Bool");
          }))
        return true;
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
        if (Depth < 2 && V->getInit() && isTensorType(V->getType()))
          return isBoolMask(V->getInit(), Depth + 1);
    return false;
  });
}

std::optional<std::string> CallMatcher::match(const Stmt *S) const {
  using Kind = MatchClause::Kind;
  switch (Clause.K) {
  case Kind::Check:
    return std::nullopt;
  case Kind::Construct: {
    const auto *C = dyn_cast<CXXConstructExpr>(S);
    if (!C)
      return std::nullopt;
    const CXXRecordDecl *RD = C->getConstructor()->getParent();
    for (const auto &N : Clause.Names)
      if (isOrDerivesFrom(RD, N))
        return qualifiedName(RD);
    return std::nullopt;
  }
  case Kind::Operator: {
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
    if (!Op)
      return std::nullopt;
    std::string Spelling = getOperatorSpelling(Op->getOperator());
    for (const auto &N : Clause.Names)
      if (N == Spelling && conditionsHold(Op, Op->getDirectCallee()))
        return "operator" + Spelling;
    return std::nullopt;
  }
  case Kind::Method: {
    const auto *C = dyn_cast<CallExpr>(S);
    if (!C || isa<CXXOperatorCallExpr>(C))
      return std::nullopt;
    const auto *M = dyn_cast_or_null<CXXMethodDecl>(calleeOf(C));
    if (!M || M->isStatic())
      return std::nullopt;
    std::string Name = M->getNameAsString();
    bool NameOk = false;
    for (const auto &N : Clause.Names)
      NameOk |= N == Name || N == "*";
    if (!NameOk)
      return std::nullopt;
    const Expr *Recv = receiverOf(C);
    bool TypeOk = isOrDerivesFrom(M->getParent(), Clause.On) ||
                  (Recv && typeIsOrDerivesFrom(Recv->getType(), Clause.On));
    if (!TypeOk || !conditionsHold(C, M))
      return std::nullopt;
    return Name;
  }
  case Kind::Call: {
    const auto *C = dyn_cast<CallExpr>(S);
    if (!C || isa<CXXMemberCallExpr>(C) || isa<CXXOperatorCallExpr>(C))
      return std::nullopt;
    const FunctionDecl *F = calleeOf(C);
    if (!F)
      return std::nullopt;
    std::string Q = qualifiedName(F);
    if (!nameIn(Q, Clause.Names) || !conditionsHold(C, F))
      return std::nullopt;
    return Q;
  }
  }
  return std::nullopt;
}

bool CallMatcher::conditionsHold(const Expr *CallE, const FunctionDecl *Callee) const {
  const MatchConditions &W = Clause.When;
  if (W.empty())
    return true;
  const auto *C = dyn_cast<CallExpr>(CallE);
  if (!C)
    return false;
  // Member operators carry the object as argument 0.
  unsigned Shift = isa<CXXOperatorCallExpr>(C) && isa_and_nonnull<CXXMethodDecl>(Callee) ? 1 : 0;
  auto anyArg = [&](const std::function<bool(const Expr *)> &P) {
    for (unsigned I = Shift; I < C->getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(C->getArg(I)) && P(C->getArg(I)))
        return true;
    return false;
  };
  if (W.ArgDevice && !anyArg([&](const Expr *A) { return mentionsDevice(A, *W.ArgDevice); }))
    return false;
  const Expr *Recv = receiverOf(C);
  if (W.ReceiverDevice && !(Recv && tensorOnDevice(Recv, *W.ReceiverDevice)))
    return false;
  if (!W.ReceiverFrom.empty()) {
    auto from = [&](const Expr *E) {
      const auto *RC = dyn_cast_or_null<CallExpr>(strip(E));
      return RC && calleeOf(RC) && nameIn(qualifiedName(calleeOf(RC)), W.ReceiverFrom);
    };
    if (!Recv || !(from(Recv) || from(initializerOf(Recv))))
      return false;
  }
  if (W.ArgCount && explicitArgCount(C, Shift) != *W.ArgCount)
    return false;
  for (const auto &P : W.MissingArg) {
    if (!Callee)
      return false;
    bool Found = false;
    const Expr *A = argForParam(C, Callee, P, Shift, Found);
    if (!Found || !isEmptyValue(A))
      return false;
  }
  if (!W.ArgMentions.empty() && !anyArg([&](const Expr *A) {
        return anyDescendant(A, [&](const Stmt *S) {
          const auto *D = dyn_cast<DeclRefExpr>(S);
          return D && nameIn(qualifiedName(D->getDecl()), W.ArgMentions);
        });
      }))
    return false;
  if (W.ArgType &&
      !anyArg([&](const Expr *A) { return typeIsOrDerivesFrom(strip(A)->getType(), *W.ArgType); }))
    return false;
  if (W.DefaultStreamArg) {
    bool Any = false;
    for (unsigned I = 0; Callee && I < Callee->getNumParams() && I + Shift < C->getNumArgs(); ++I)
      if (isStreamType(Callee->getParamDecl(I)->getType()) &&
          !isa<CXXDefaultArgExpr>(C->getArg(I + Shift)) && isDefaultStream(C->getArg(I + Shift)))
        Any = true;
    if (!Any)
      return false;
  }
  if (W.BoolMaskIndex && !anyArg([](const Expr *A) { return isBoolMask(A); }))
    return false;
  if (W.AutomaticStorageArg && !anyArg([](const Expr *A) { return pointsAtAutomaticStorage(A); }))
    return false;
  if (W.OutputStream) {
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
    if (!Op || !writesToOutput(Op))
      return false;
  }
  if (W.OutputStreamArg && !handsOutputStream(C, Callee, Shift))
    return false;
  // W.NotIfDifferent, W.NotUnderFlag and W.NotInMacro need the enclosing
  // function's statements or its source; the check that reports the match
  // judges them (CallSpellingCheck).
  return true;
}

} // namespace graphsafe::lint
