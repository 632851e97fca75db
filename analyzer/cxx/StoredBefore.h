// A callable the function itself stores just before calling it: `mEnqueue =
// Enqueue(ctx); ... if (mEnqueue(s))` runs Enqueue's operator(), whatever the
// program stores into mEnqueue elsewhere (TensorRT's trtexec stores a graph
// launcher there right after the capture). Storage is the member of this
// object or a local; the store is the last one before the call and sits in a
// block that holds the call, so it runs on every path to it.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <functional>

namespace graphsafe::lint {

// Target: the expression the indirect call C reads its callee from. CallableOf
// turns a stored value into the function it stands for (null: not known).
const clang::FunctionDecl *
storedJustBefore(const clang::Stmt *Body, const clang::Expr *Target, const clang::CallExpr *C,
                 clang::ASTContext &AC,
                 const std::function<const clang::FunctionDecl *(const clang::Expr *)> &CallableOf);

} // namespace graphsafe::lint
