// Where a translation unit keeps callables: every lambda, function, function
// object or other storage put into a std::function, a function pointer, or a
// container of them (a vector of hooks, a map of named callbacks, a pair
// holding one). An indirect call reads one of these storages, directly or
// through what C++ reads elements back with (a range-for's element, a
// structured binding, an iterator's `->second`, a reference to an element),
// and runs what the program put there (TUSummary::CallableStores).
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

#include <map>
#include <set>

namespace graphsafe::lint {

// The call operator of a function-object class of the program (not a library
// wrapper such as std::function or c10::function_ref, which only forwards to
// what it holds): its one non-template operator().
const clang::FunctionDecl *functorCall(const clang::CXXRecordDecl *R);

// The function a callable expression stands for: a lambda, a function object
// made right there (`std::function<F>(Enqueue(ctx))`), a variable holding a
// lambda, or a named function.
const clang::FunctionDecl *callableOf(const clang::Expr *E);

// The variable, field or container an expression reads (`step.fn` -> fn,
// `hooks[i]` -> hooks, `it->second` -> it, `entry.second` -> entry), or the
// program's function whose result it is when that returns callables: where
// callables are stored and called from.
const clang::ValueDecl *storageOf(const clang::Expr *E);

// The value an argument hands on: std::move(cb) / std::forward<F>(cb) hand on
// what cb holds, std::function's converting constructor wraps it.
const clang::Expr *handedValue(const clang::Expr *E);

// Whether a declaration can hold a callable: a std::function (or another class
// with a call operator), a function pointer or reference.
bool holdsCallable(const clang::ValueDecl *D);

class CallableStoreCollector {
public:
  // The stores in a function (its member initialisers and body), and in a
  // namespace-scope variable's initialiser.
  void collect(const clang::FunctionDecl *F);
  void collectGlobal(const clang::VarDecl *V);

  // Whether S is a lambda or function name stored into a member or a global:
  // naming it there runs nothing there.
  bool storedAway(const clang::Stmt *S) const { return StoredAway.count(S) > 0; }

  // Storage -> the callables put into it.
  std::map<const clang::ValueDecl *, std::set<const clang::FunctionDecl *>> Callables;
  // Storage -> other storages whose callables it receives (a parameter handed
  // on, a container read back through a loop variable).
  std::map<const clang::ValueDecl *, std::set<const clang::ValueDecl *>> Storages;

private:
  void store(const clang::ValueDecl *Into, const clang::Expr *Value);
  void storeArguments(const clang::FunctionDecl *Callee, llvm::ArrayRef<const clang::Expr *> Args);
  void collectStoresIn(const clang::Stmt *Root);
  // Library code that builds one of the program's classes from the arguments
  // it forwards runs that class's constructor on them.
  void storeIntoConstructors(const clang::Expr *E);

  std::set<const clang::Stmt *> StoredAway;
  // The function being collected, when it returns callables: its returns
  // store into it.
  const clang::FunctionDecl *Returning = nullptr;
};

} // namespace graphsafe::lint
