#include "ConstructedClasses.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

namespace graphsafe::lint {

using namespace clang;

namespace {

// Factories that construct their first template argument's type, whose
// `new T(...)` sits in a header instantiation the walk does not read.
bool isMakeFunction(const FunctionDecl *F) {
  if (!F || !F->getIdentifier())
    return false;
  llvm::StringRef N = F->getName();
  return N == "make_shared" || N == "make_unique" || N == "allocate_shared" ||
         N == "make_intrusive" || N == "make_unique_for_overwrite";
}

class Constructions : public RecursiveASTVisitor<Constructions> {
public:
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    // A base subobject or a delegating call is no object of that class.
    if (E->getConstructionKind() == CXXConstructionKind::Complete)
      note(E->getConstructor()->getParent());
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr *E) {
    note(E->getAllocatedType()->getAsCXXRecordDecl());
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    const FunctionDecl *F = E->getDirectCallee();
    if (!isMakeFunction(F))
      return true;
    if (const TemplateArgumentList *Args = F->getTemplateSpecializationArgs();
        Args && Args->size() > 0 && Args->get(0).getKind() == TemplateArgument::Type)
      note(Args->get(0).getAsType()->getAsCXXRecordDecl());
    return true;
  }
  // Lambdas in the body are functions of their own, collected apart.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  std::set<const CXXRecordDecl *> Made;

private:
  // An object makes its members too (an implicit constructor has no body
  // to read them from).
  void note(const CXXRecordDecl *RD) {
    if (!RD || !(RD = RD->getDefinition()) || !Noted.insert(RD).second)
      return;
    if (RD->isPolymorphic())
      Made.insert(RD);
    for (const FieldDecl *F : RD->fields()) {
      QualType T = F->getType();
      while (const ArrayType *A = T->getAsArrayTypeUnsafe())
        T = A->getElementType();
      note(T->getAsCXXRecordDecl());
    }
  }
  std::set<const CXXRecordDecl *> Noted;
};

} // namespace

void collectClassFacts(const std::vector<const FunctionDecl *> &Functions,
                       const std::vector<const VarDecl *> &Globals,
                       const std::function<std::string(const Decl *)> &UsrOf, TUSummary &Out) {
  Constructions C;
  for (const FunctionDecl *F : Functions) {
    C.TraverseStmt(F->getBody());
    // A constructor's member initialisers build members.
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isMemberInitializer())
          C.TraverseStmt(Init->getInit());
  }
  for (const VarDecl *V : Globals)
    C.TraverseStmt(const_cast<Expr *>(V->getInit()));
  std::set<std::string> Built;
  for (const CXXRecordDecl *RD : C.Made)
    if (std::string Usr = UsrOf(RD); !Usr.empty())
      Built.insert(Usr);
  Out.BuiltClasses.assign(Built.begin(), Built.end());

  // The polymorphic classes whose virtual methods this TU defines, with
  // their bases up to the roots: enough for the walk to tell which classes
  // run which override.
  std::set<const CXXRecordDecl *> Classes;
  std::vector<const CXXRecordDecl *> Todo;
  for (const FunctionDecl *F : Functions)
    if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->isVirtual())
      Todo.push_back(M->getParent());
  Todo.insert(Todo.end(), C.Made.begin(), C.Made.end());
  while (!Todo.empty()) {
    const CXXRecordDecl *RD = Todo.back();
    Todo.pop_back();
    if (!RD || !(RD = RD->getDefinition()) || !Classes.insert(RD).second)
      continue;
    for (const CXXBaseSpecifier &B : RD->bases())
      Todo.push_back(B.getType()->getAsCXXRecordDecl());
  }
  for (const CXXRecordDecl *RD : Classes) {
    ClassSummary S;
    S.Key = UsrOf(RD);
    if (S.Key.empty())
      continue;
    for (const CXXBaseSpecifier &B : RD->bases())
      if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl())
        if (std::string K = UsrOf(Base); !K.empty())
          S.Bases.push_back(K);
    for (const CXXMethodDecl *M : RD->methods())
      if (M->isVirtual() && M->getIdentifier())
        if (std::string K = UsrOf(M); !K.empty())
          S.Methods[M->getName().str()] = K;
    Out.Classes.push_back(std::move(S));
  }
}

} // namespace graphsafe::lint
