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

// An end wrapper's ways out before its end call (`if (!GraphsOn) { ...;
// return; }` ahead of EndCapture): a path that returns without ending runs
// only when no capture is open, since were one open, that path would leave
// it open (a bug of its own, not a capture hazard of that code). So the
// condition the begin wrapper skipped its begin on, tested again here, needs
// no proof that the two agree. EndOffset is the end call's file offset.
std::vector<SpelledRange> findEarlyExitsBeforeEnd(const clang::Stmt *Body, unsigned EndOffset,
                                                  const clang::SourceManager &SM);
// The branches of Body that leave the function by a return or goto (not by
// ending the program or throwing), for the summary of a function whose end
// call is in another file.
std::vector<const clang::Stmt *> findEarlyExits(const clang::Stmt *Body);

bool inAny(const std::vector<SpelledRange> &Ranges, clang::SourceLocation L,
           const clang::SourceManager &SM);

// Whether S ends by leaving the function: a return or goto, or ending the
// program (exit, abort, a throw).
bool leavesTheFunction(const clang::Stmt *S);

} // namespace graphsafe::lint
