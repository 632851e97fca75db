// The Python front end from files to summaries: every file parsed and
// indexed first, so imports, classes and methods resolve across the files of
// one invocation, then each function summarised as the C++ front end does.
#pragma once

#include "Progress.h"
#include "Summary.h"
#include "cache/CacheStore.h"
#include "graphsafe/Finding.h"
#include "graphsafe/Rule.h"
#include "resolve/ImportSystem.h"

#include <functional>
#include <string>
#include <vector>

namespace graphsafe::lint::py {

struct PyCacheSetup {
  const CacheStore *Store = nullptr; // none, or disabled: no cache
  std::string Fingerprint;           // this graphlint and its rules
};

struct PyResult {
  std::vector<TUSummary> Summaries; // one per file, in the order given
  std::vector<std::vector<ToolError>> Errors;
  std::vector<ToolError> Warnings; // grammar gaps in files CPython accepts
  size_t Lines = 0;
  size_t FromCache = 0; // summaries the cache gave back
};

// Shown, when given, hears of each file as its summary is done. Mine, when
// given, picks the files this run summarises (a shard's part): every file is
// still read, since types and calls resolve across all of them, but only
// Mine's get summaries, errors and warnings. With a cache (PyResultCache.h),
// a module whose text and whose reads are unchanged is not analysed again.
// Roots: where module names start (resolve/ImportSystem.h); none: each
// file's package root and script folder alone.
PyResult analyzePythonFiles(const std::vector<std::string> &Files, const SourceRoots &Roots,
                            const RuleSet &Rules, unsigned Jobs, Progress *Shown = nullptr,
                            const std::function<bool(size_t)> &Mine = nullptr,
                            const PyCacheSetup *Cache = nullptr);

bool isPythonFile(const std::string &Path);

} // namespace graphsafe::lint::py
