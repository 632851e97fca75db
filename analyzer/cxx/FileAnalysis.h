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
  // Parsed whole for want of a cached preamble that its next analysis would
  // use: buildPreamble() makes one, in the background.
  bool WantsPreamble = false;
};

// PreambleAhead: File wants a preamble also on its first analysis (one of
// the few files a pre-commit run names), not only once it is being edited.
FileResult analyzeFile(const AnalysisSetup &Setup, const std::string &File,
                       bool PreambleAhead = false);

// Builds and caches File's preamble (what analyzeFile's later parses reuse);
// false when none was built (none needed, one cached, another process
// building it, or the headers do not parse).
bool buildPreamble(const AnalysisSetup &Setup, const std::string &File);

} // namespace graphsafe::lint
