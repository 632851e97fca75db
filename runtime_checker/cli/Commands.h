// graphcheck's subcommands.
#pragma once

#include "graphsafe/Finding.h"
#include "graphsafe/Rule.h"

#include <string>
#include <vector>

namespace graphsafe::rt {

struct CheckOptions {
  std::vector<std::string> RuleDirs;
  std::string Format = "text";
  std::string Output;
  std::string FailOn = "warning";
  bool AssumeEagerWrites = false;
  std::string Mode = "light";     // light | verify
  std::string Profiler = "yield"; // yield | keep: who gets CUPTI when torch.profiler starts
  std::string DotDir;             // Write each flagged graph as DOT (and SVG with graphviz) here.
  std::string Argv0;
};

// Builds the report for one recorded trace.
Report analyzeTrace(const std::string &Path, const RuleSet &Rules, const CheckOptions &Opts);

// One report for the traces of a run's processes (torchrun ranks): the same
// hazard on several of them is one finding naming them.
Report analyzeTraces(const std::vector<std::string> &Paths, const RuleSet &Rules,
                     const CheckOptions &Opts);

RuleSet loadRulesFor(const CheckOptions &Opts, Report &Rep);

// Writes the report (to Output, or stdout) and returns 0/1/2 by --fail-on.
int writeAndScore(const Report &Rep, const RuleSet &Rules, const CheckOptions &Opts,
                  const std::string &Output);

// Runs Command under the injection library; returns the exit code graphcheck exits with.
int runUnderChecker(const std::vector<std::string> &Command, const CheckOptions &Opts);

} // namespace graphsafe::rt
