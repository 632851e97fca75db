// Code that does not run in a capture that succeeds, so what it does is not
// a capture hazard:
// - branches that end the program or throw (the CHECK-style macro around
//   every CUDA call: `if (err) { fprintf(...); exit(1); }`);
// - run-once set-up: a function-local static's initialiser, and a branch that
//   sets up long-lived state when it is still unset (`if (handle == nullptr)
//   handle = create();`). Real code runs both during warm-up, before any
//   capture, which is also what PyTorch's documentation asks for.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

#include <vector>

namespace graphsafe::lint {

// A branch, by where it is spelled: a macro's branch is in the macro's
// definition, while the arguments the macro checks are spelled at its use
// and stay outside it.
struct SpelledRange {
  clang::FileID File;
  unsigned Begin = 0, End = 0; // [Begin, End) in File.
};

std::vector<SpelledRange> findNotCaptured(const clang::Stmt *Body, const clang::SourceManager &SM);

bool inAny(const std::vector<SpelledRange> &Ranges, clang::SourceLocation L,
           const clang::SourceManager &SM);

// Whether S ends by leaving the function: a return or goto, or ending the
// program (exit, abort, a throw).
bool leavesTheFunction(const clang::Stmt *S);

} // namespace graphsafe::lint
