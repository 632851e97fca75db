// A rule's match clause compiled against clang's AST: which calls, methods,
// constructions or operators it names, and the argument conditions on them.
#pragma once

#include "graphsafe/Rule.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <optional>
#include <string>

namespace graphsafe::lint {

class CallMatcher {
public:
  explicit CallMatcher(MatchClause Clause) : Clause(std::move(Clause)) {}

  // The name to show in the message when S matches, e.g. "cudaDeviceSynchronize".
  std::optional<std::string> match(const clang::Stmt *S) const;

  const MatchClause &clause() const { return Clause; }

private:
  bool conditionsHold(const clang::Expr *Call, const clang::FunctionDecl *Callee) const;

  MatchClause Clause;
};

// Shared with checks that reason about devices and streams.
bool mentionsDevice(const clang::Expr *E, const std::string &Device);
bool tensorOnDevice(const clang::Expr *Tensor, const std::string &Device);
bool isStreamType(clang::QualType T);
bool isDefaultStream(const clang::Expr *E);
bool isBoolMask(const clang::Expr *E, unsigned Depth = 0);

} // namespace graphsafe::lint
