// Small AST queries shared by the capture-region finder and the checks.
#pragma once

#include "graphsafe/Finding.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <functional>
#include <string>

namespace graphsafe::lint {

std::string qualifiedName(const clang::NamedDecl *D);

// A rule spelling matches a declaration's qualified name when equal to it or
// to a trailing part of it that starts at a scope boundary: "cudaMemcpy"
// matches "::cudaMemcpy" and "c10::cuda::device_synchronize" matches itself.
bool nameMatches(const std::string &Qualified, const std::string &Pattern);

bool isOrDerivesFrom(const clang::CXXRecordDecl *RD, const std::string &Pattern);
bool typeIsOrDerivesFrom(clang::QualType T, const std::string &Pattern);

// Strips parentheses, implicit casts, temporaries and copies.
const clang::Expr *strip(const clang::Expr *E);

// The object a member call is made on (null for free calls).
const clang::Expr *receiverOf(const clang::CallExpr *C);
// Where C's arguments for Callee's parameters start: 1 for a member
// operator's call, whose first argument is the object, else 0.
unsigned firstParameterArgument(const clang::CallExpr *C, const clang::FunctionDecl *Callee);

// The variable, field or function an expression names, if any.
const clang::ValueDecl *referencedDecl(const clang::Expr *E);

// The initializer of the variable an expression names, if it names one.
const clang::Expr *initializerOf(const clang::Expr *E);

// True if Pred holds for S or any statement below it; lambda bodies excluded.
bool anyDescendant(const clang::Stmt *S, const std::function<bool(const clang::Stmt *)> &Pred);

// What S stores into, when it is an assignment (plain or compound, built-in
// or operator=), an increment or decrement, or (with AddressOf) `&x` handed
// to a call that may write through it; null otherwise.
const clang::Expr *storedInto(const clang::Stmt *S, bool AddressOf);

SourceLoc toLoc(const clang::SourceManager &SM, clang::SourceLocation L);
// E as written (parentheses and implicit conversions stripped).
std::string sourceText(const clang::Expr *E, const clang::ASTContext &Ctx);
unsigned offsetOf(const clang::SourceManager &SM, clang::SourceLocation L);

// The function a call resolves to, looking through function-template
// specialisations; null for calls through pointers.
const clang::FunctionDecl *calleeOf(const clang::CallExpr *C);

// The user-written destructor that destroying an object of type T runs
// (through arrays, and a std::unique_ptr's pointee); null when that is
// trivial or only the compiler's.
const clang::CXXDestructorDecl *destructorRunFor(clang::QualType T, clang::ASTContext &Ctx);
bool isUniquePtr(clang::QualType T);

bool isTensorType(clang::QualType T);

// Whether a member call runs the method it names and no override: a
// qualified call (`Base::run()`, `obj.Base::run()`), a call on an object
// whose dynamic type is its static type (a local or member held by value, a
// final class or method), or a call on `this` inside a constructor or
// destructor (Caller), where the object is not yet or no longer a derived one.
bool callsNamedMethodOnly(const clang::CallExpr *C, const clang::FunctionDecl *Caller);

// Code graphlint neither analyses nor reports in: system headers, and headers
// of installed libraries (under /usr/include, /usr/local/include, /usr/lib,
// a CUDA installation, a Python environment's site-packages), which a project
// may put on its -I path without their being its own code. The main file
// never is. Calls into such code are still matched by the rules at the call.
bool isLibraryCode(const clang::SourceManager &SM, clang::SourceLocation L);

} // namespace graphsafe::lint
