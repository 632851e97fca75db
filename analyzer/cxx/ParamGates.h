// Branches a literal argument decides: `void step(bool capturing)` with
// `if (!capturing) cudaStreamSynchronize(s);` never syncs for a caller passing
// true. Sites and calls record the tests of their function's parameters they
// run under; calls record the literals they pass; the reachability walk keeps
// what runs for the literals each caller passed (as for Python, whose
// counterpart is python/PyConstantBranches.cpp).
#pragma once

#include "Summary.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <set>
#include <vector>

namespace graphsafe::lint {

struct ParamGatedRange {
  unsigned Begin = 0, End = 0; // File offsets, [Begin, End).
  ParamTest Test;
};

// Parameters a literal decides: scalars (bool, integer, pointer) F only reads.
std::set<const clang::ParmVarDecl *> readOnlyScalars(const clang::FunctionDecl *F);

// The ranges of F's body that run only when a test of one of its parameters
// in Fixed (readOnlyScalars of F) holds: the branches of an `if` on `p`, `!p`,
// `p == nullptr`, `p != 0`, `&&` and `||` chains of those, and what follows
// `if (p) return;`.
std::vector<ParamGatedRange> findParamGatedRanges(const clang::FunctionDecl *F,
                                                  const std::set<const clang::ParmVarDecl *> &Fixed,
                                                  clang::ASTContext &Ctx);

// The literals (true, false, integers, nullptr, defaults left out) a call
// passes for Callee's parameters, and the caller's parameters among Fixed
// (readOnlyScalars of the caller) that it passes on unchanged.
std::vector<ConstArg> literalArguments(const clang::CallExpr *C, const clang::FunctionDecl *Callee,
                                       const std::set<const clang::ParmVarDecl *> &Fixed);

} // namespace graphsafe::lint
