// Code that runs only when the environment sets a variable (`if
// (getenv("MYLIB_DEBUG"))`) is off in a default run: what it does under
// capture is at most a note (Reachability's makeFinding).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <string>
#include <vector>

namespace graphsafe::lint {

struct EnvGatedRange {
  unsigned Begin = 0, End = 0; // File offsets, [Begin, End).
  std::string Variable;
};

// The ranges of F's body that run only when a variable is set: the branch of
// an `if` testing `getenv("X")` (also `!= nullptr`, `&&` chains, `atoi`,
// `strcmp(...) == 0`, a variable initialised from such a test), and what
// follows `if (!getenv("X")) return;`.
std::vector<EnvGatedRange> findEnvGatedRanges(const clang::FunctionDecl *F, clang::ASTContext &Ctx);

} // namespace graphsafe::lint
