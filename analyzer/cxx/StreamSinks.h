// Where a C++ stream write ends up: a string being built, a stream the
// caller chose, or the program's output (std::cout, a file, a log).
#pragma once

#include "clang/AST/Expr.h"

namespace graphsafe::lint {

// The stream a `<<` chain writes to: `os` in `os << a << b`.
const clang::Expr *streamRoot(const clang::Expr *StreamArg);

// True when `<<` writes somewhere a replay would have to repeat: not into a
// string stream (`std::ostringstream ss; ss << x` builds a string), and not
// into a stream the function was handed (a formatter's `os << v.x`: the
// caller decides where it goes, and a call handing it std::cout is reported
// there, see handsOutputStream).
bool writesToOutput(const clang::CXXOperatorCallExpr *Op);

// True when the call hands an output stream (std::cout, std::cerr, std::clog,
// their wide forms, a file stream) to a stream parameter of the callee.
bool handsOutputStream(const clang::CallExpr *C, const clang::FunctionDecl *Callee, unsigned Shift);

} // namespace graphsafe::lint
