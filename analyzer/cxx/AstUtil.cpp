#include "AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/StmtVisitor.h"

namespace graphsafe::lint {

using namespace clang;

std::string qualifiedName(const NamedDecl *D) {
  if (!D)
    return "";
  PrintingPolicy Policy(D->getASTContext().getLangOpts());
  Policy.SuppressUnwrittenScope = true;
  Policy.SuppressInlineNamespace = true;
  Policy.SuppressTemplateArgsInCXXConstructors = true;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  D->printQualifiedName(OS, Policy);
  return OS.str();
}

bool nameMatches(const std::string &Qualified, const std::string &Pattern) {
  // "nvte_*": every function whose name (or a ::-suffix of its qualified
  // name) begins so, for a library's whole C API.
  if (!Pattern.empty() && Pattern.back() == '*') {
    std::string Prefix = Pattern.substr(0, Pattern.size() - 1);
    if (Prefix.rfind("::", 0) == 0)
      return Qualified.rfind(Prefix.substr(2), 0) == 0;
    for (size_t At = 0;; At += 2) {
      if (Qualified.compare(At, Prefix.size(), Prefix) == 0)
        return true;
      At = Qualified.find("::", At);
      if (At == std::string::npos)
        return false;
    }
  }
  if (Pattern.rfind("::", 0) == 0)
    return Qualified == Pattern.substr(2);
  if (Qualified == Pattern)
    return true;
  if (Qualified.size() <= Pattern.size() + 2)
    return false;
  return Qualified.compare(Qualified.size() - Pattern.size(), Pattern.size(), Pattern) == 0 &&
         Qualified.compare(Qualified.size() - Pattern.size() - 2, 2, "::") == 0;
}

bool isOrDerivesFrom(const CXXRecordDecl *RD, const std::string &Pattern) {
  if (!RD)
    return false;
  RD = RD->getDefinition() ? RD->getDefinition() : RD;
  if (nameMatches(qualifiedName(RD), Pattern))
    return true;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    if (nameMatches(qualifiedName(Spec->getSpecializedTemplate()), Pattern))
      return true;
  if (!RD->hasDefinition())
    return false;
  for (const auto &Base : RD->bases())
    if (isOrDerivesFrom(Base.getType()->getAsCXXRecordDecl(), Pattern))
      return true;
  return false;
}

bool typeIsOrDerivesFrom(QualType T, const std::string &Pattern) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return isOrDerivesFrom(T->getAsCXXRecordDecl(), Pattern);
}

const Expr *strip(const Expr *E) {
  while (E) {
    const Expr *Prev = E;
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
             C && C->getNumArgs() == 1 && C->getConstructor()->isCopyOrMoveConstructor())
      E = C->getArg(0);
    if (E == Prev)
      break;
  }
  return E;
}

unsigned firstParameterArgument(const CallExpr *C, const FunctionDecl *Callee) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(Callee);
  return isa<CXXOperatorCallExpr>(C) && M && !M->isStatic() ? 1 : 0;
}

const Expr *receiverOf(const CallExpr *C) {
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(C))
    return M->getImplicitObjectArgument();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C))
    if (isa_and_nonnull<CXXMethodDecl>(Op->getDirectCallee()) && Op->getNumArgs() > 0)
      return Op->getArg(0);
  return nullptr;
}

const ValueDecl *referencedDecl(const Expr *E) {
  E = strip(E);
  if (!E)
    return nullptr;
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    return D->getDecl();
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return M->getMemberDecl();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf)
      return referencedDecl(U->getSubExpr());
  return nullptr;
}

const Expr *storedInto(const Stmt *S, bool AddressOf) {
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    return B->getLHS();
  if (const auto *U = dyn_cast<UnaryOperator>(S))
    return U->isIncrementDecrementOp() || (AddressOf && U->getOpcode() == UO_AddrOf)
               ? U->getSubExpr()
               : nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
    if (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
        Op->getOperator() == OO_MinusMinus)
      return Op->getArg(0);
  return nullptr;
}

const Expr *initializerOf(const Expr *E) {
  if (const auto *V = dyn_cast_or_null<VarDecl>(referencedDecl(E)))
    return V->getInit();
  return nullptr;
}

bool anyDescendant(const Stmt *S, const std::function<bool(const Stmt *)> &Pred) {
  if (!S)
    return false;
  if (Pred(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false;
  for (const Stmt *Child : S->children())
    if (anyDescendant(Child, Pred))
      return true;
  return false;
}

std::string sourceText(const clang::Expr *E, const clang::ASTContext &Ctx) {
  return clang::Lexer::getSourceText(
             clang::CharSourceRange::getTokenRange(strip(E)->getSourceRange()),
             Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

SourceLoc toLoc(const SourceManager &SM, SourceLocation L) {
  SourceLoc Out;
  if (L.isInvalid())
    return Out;
  SourceLocation E = SM.getExpansionLoc(L);
  PresumedLoc P = SM.getPresumedLoc(E);
  if (P.isInvalid())
    return Out;
  Out.File = P.getFilename();
  Out.Line = P.getLine();
  Out.Column = P.getColumn();
  return Out;
}

unsigned offsetOf(const SourceManager &SM, SourceLocation L) {
  return SM.getFileOffset(SM.getExpansionLoc(L));
}

const FunctionDecl *calleeOf(const CallExpr *C) { return C ? C->getDirectCallee() : nullptr; }

namespace {

const ClassTemplateSpecializationDecl *uniquePtrOf(QualType T) {
  const auto *Spec =
      T.isNull() ? nullptr
                 : dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  return Spec && Spec->isInStdNamespace() && Spec->getName() == "unique_ptr" &&
                 Spec->getTemplateArgs().size() > 0 &&
                 Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type
             ? Spec
             : nullptr;
}

} // namespace

bool isUniquePtr(QualType T) { return uniquePtrOf(T) != nullptr; }

const CXXDestructorDecl *destructorRunFor(QualType T, ASTContext &Ctx) {
  if (T.isNull() || T->isReferenceType())
    return nullptr; // a reference destroys nothing
  T = Ctx.getBaseElementType(T);
  const CXXRecordDecl *R = T->getAsCXXRecordDecl();
  if (!R || !R->hasDefinition())
    return nullptr;
  if (const auto *Spec = uniquePtrOf(T))
    return destructorRunFor(Spec->getTemplateArgs()[0].getAsType(), Ctx);
  const CXXDestructorDecl *D = R->getDestructor();
  return D && D->isUserProvided() ? D : nullptr;
}

bool isTensorType(QualType T) { return typeIsOrDerivesFrom(T, "at::TensorBase"); }

bool isLibraryCode(const clang::SourceManager &SM, clang::SourceLocation L) {
  if (L.isInvalid())
    return false;
  L = SM.getExpansionLoc(L);
  if (SM.isInSystemHeader(L))
    return true;
  clang::FileID FID = SM.getFileID(L);
  if (FID == SM.getMainFileID())
    return false;
  clang::OptionalFileEntryRef File = SM.getFileEntryRefForID(FID);
  if (!File)
    return false;
  llvm::StringRef Path = File->getName();
  for (llvm::StringRef Prefix : {"/usr/include/", "/usr/local/include/", "/usr/lib/",
                                 "/usr/local/lib/", "/usr/local/cuda", "/opt/nvidia/"})
    if (Path.starts_with(Prefix))
      return true;
  return Path.contains("/site-packages/") || Path.contains("/dist-packages/");
}

bool callsNamedMethodOnly(const clang::CallExpr *C, const clang::FunctionDecl *Caller) {
  using namespace clang;
  const auto *M = dyn_cast_or_null<CXXMemberCallExpr>(C);
  const CXXMethodDecl *Method = M ? M->getMethodDecl() : nullptr;
  if (!Method || !Method->isVirtual())
    return false;
  if (const auto *ME = dyn_cast<MemberExpr>(M->getCallee()->IgnoreParens());
      ME && ME->hasQualifier())
    return true;
  const Expr *Object = M->getImplicitObjectArgument();
  if (!Object)
    return false;
  if (Method->getDevirtualizedMethod(Object, /*IsAppleKext=*/false))
    return true;
  return isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) && Caller &&
         (isa<CXXConstructorDecl>(Caller) || isa<CXXDestructorDecl>(Caller));
}

} // namespace graphsafe::lint
