// Analyses one parsed translation unit into per-function summaries.
#pragma once

#include "Summary.h"
#include "graphsafe/Rule.h"

#include "clang/AST/ASTConsumer.h"

#include <memory>

namespace graphsafe::lint {

std::unique_ptr<clang::ASTConsumer> makeTUAnalyzer(const RuleSet &Rules, TUSummary &Out);

} // namespace graphsafe::lint
