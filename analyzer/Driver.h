// graphlint's job from command line to exit code.
#pragma once

#include "ParallelFor.h"

#include "graphsafe/Finding.h"

#include <cstdint>
#include <string>
#include <vector>

namespace graphsafe::lint {

struct Options {
  std::vector<std::string> Files;
  std::vector<std::string> RuleDirs;
  std::vector<std::string> CompilerArgs; // After `--`.
  bool HaveCompilerArgs = false;
  std::string Format = "text";
  std::string Output;
  std::string BuildPath;
  std::string Baseline;
  std::string WriteBaseline;
  std::string CudaPath;
  std::string FailOn = "warning";
  unsigned Jobs = availableCores();
  std::string CacheDir; // Default: .cache/graphlint next to the compile database.
  bool NoCache = false;
  bool CacheStats = false;
  uint64_t CacheSizeMiB = 2048; // Oldest entries out first beyond this.
  bool ShowSource = true;
  bool ListRules = false;
  bool ExplainReach = false; // Also say which calls under capture go where graphlint cannot see.
  // Where to write the Python call graph (PyCG's JSON): what capture
  // regions reach, or with CallGraphAll every function's calls.
  std::string CallGraph;
  bool CallGraphAll = false;
  // With CallGraph: the file and line of each call, per callee.
  bool CallGraphSites = false;
  std::string Progress = "auto"; // auto (a line on a terminal), line, plain (CI logs), off.
  bool Quiet = false;
  std::string Shard;              // "K/N": analyse part K of N and write it to ShardOut.
  std::string ShardOut;           // Default graphlint-shard-K-of-N.json.
  std::vector<std::string> Merge; // Shard files of one sharded run: report from them.
  std::string Argv0;
  std::vector<std::string> OwnArgs; // The command line before `--`, as given.
  // Set in the detached process a run starts to build the preambles its
  // files want (PreambleBuilder.h): build them, report nothing.
  std::vector<std::string> BuildPreamblesFor;
};

// Returns the process exit code: 0 clean, 1 findings at or above --fail-on,
// 2 the tool could not do its job.
int runGraphlint(const Options &Opts);

} // namespace graphsafe::lint
