// One class per rule family, in clang-tidy's manner: the family decides what
// to look for; rule files decide which ids, severities and messages it feeds.
#pragma once

#include "../FunctionContext.h"
#include "graphsafe/Rule.h"

#include <map>
#include <memory>
#include <set>
#include <vector>

namespace graphsafe::lint {

using MutationSites = std::map<const clang::ValueDecl *, std::vector<clang::SourceLocation>>;

// Facts about the whole translation unit that single functions cannot show.
struct TUFacts {
  // Every assignment, increment or mutating call of a variable or field.
  MutationSites Mutations;
  // Fields initialised in constructors' member-initializer lists.
  std::map<const clang::FieldDecl *, const clang::Expr *> FieldInits;
  // Generators whose state is registered with a graph.
  std::set<const clang::ValueDecl *> RegisteredGenerators;
  // Variables and fields whose value GPU work takes: kernel launch arguments,
  // and what is handed to the runtime's copies and sets.
  std::set<const clang::ValueDecl *> GpuConsumed;
  // Functions whose result GPU work takes (`kernel<<<...>>>(rng.next(n))`):
  // what they advance feeds every launch that uses them.
  std::set<const clang::FunctionDecl *> GpuFeeding;
};

// Adds what one function body hands to GPU work to Facts.
void collectGpuConsumed(const clang::Stmt *Body, TUFacts &Facts);

// Adds the mutations in one function body (not in lambdas inside it) to Into.
void collectMutations(const clang::Stmt *Body, MutationSites &Into);

class Check {
public:
  virtual ~Check() = default;
  virtual void run(FunctionContext &Ctx, const TUFacts &Facts) = 0;
};

// Rules whose match clauses name calls, methods, constructions or operators.
std::unique_ptr<Check> makeCallSpellingCheck(const RuleSet &Rules);
std::unique_ptr<Check> makeStreamCheck();
std::unique_ptr<Check> makeHostSideEffectCheck();
std::unique_ptr<Check> makeControlFlowCheck();
std::unique_ptr<Check> makeRngCheck();
std::unique_ptr<Check> makeLifecycleCheck();

std::vector<std::unique_ptr<Check>> makeAllChecks(const RuleSet &Rules);

// The family check names rule files may enable with `check: NAME`.
const std::set<std::string> &knownCheckNames();

} // namespace graphsafe::lint
