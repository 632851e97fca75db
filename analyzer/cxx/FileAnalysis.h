// One source file from compile command to summary: from the result cache
// when nothing it depends on changed, else parsed (reusing a cached preamble
// where one fits) and its summary cached for next time.
#pragma once

#include "CompilerSetup.h"
#include "Summary.h"
#include "cache/CacheStore.h"
#include "graphsafe/Finding.h"
#include "graphsafe/Rule.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <string>
#include <vector>

namespace graphsafe::lint {

struct AnalysisSetup {
  const clang::tooling::CompilationDatabase &DB;
  const Toolchain &TC;
  const RuleSet &Rules;
  const CacheStore &Cache; // Disabled when --no-cache or no cache folder.
  std::string Fingerprint; // graphlint and its rules, part of every cache key.
};

struct FileResult {
  TUSummary Summary;
  std::vector<ToolError> Errors;
  bool FromCache = false;
};

FileResult analyzeFile(const AnalysisSetup &Setup, const std::string &File);

} // namespace graphsafe::lint
