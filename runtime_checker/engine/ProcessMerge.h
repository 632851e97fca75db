// One report for a run of several processes (torchrun ranks, workers): each
// process's trace is analysed on its own, then the same hazard found on
// several ranks becomes one finding that names them all.
#pragma once

#include "graphsafe/Finding.h"

#include <string>
#include <vector>

namespace graphsafe::rt {

struct ProcessReport {
  std::string Process; // As the trace names it: "rank1-4242" or "4242".
  Report Rep;
};

// "rank1-4242" for a trace graphcheck wrote as trace-rank1-4242.jsonl; the
// file's stem for a trace named otherwise.
std::string processOfTrace(const std::string &Path);

// "rank 1" for "rank1-4242", "pid 4242" for "4242", other names unchanged.
std::string processLabel(const std::string &Process);

// Findings of the same rule at the same place (source line, graph, node,
// kernel) about the same subject (the message but for its numbers) are one;
// addresses and replay counts, which differ between processes, are taken
// from the first process that reported it.
Report mergeProcessReports(std::vector<ProcessReport> Parts);

} // namespace graphsafe::rt
