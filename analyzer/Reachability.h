// Joins the summaries of all translation units: every site inside a region,
// and every site in a function reachable from one, becomes a finding whose
// notes walk the call chain back to the region.
#pragma once

#include "Summary.h"
#include "graphsafe/Finding.h"
#include "graphsafe/Rule.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace graphsafe::lint {

// ExplainReach adds a capture-reach-unknown note at every call under capture
// whose callee the analysed code never shows.
std::vector<Finding> findingsFromSummaries(const std::vector<TUSummary> &TUs, const RuleSet &Rules,
                                           bool ExplainReach = false);

// Who calls whom, as the walk resolves calls: caller USR -> the functions
// (USRs) and outside code (`ext:NAME`) each of its calls may run -> the
// places (file, line) of the calls that may run it. FromRegions: the calls
// made under capture (in regions, and in what they reach, where the walk's
// literals let them run); else every call of every function, resolved with
// no caller's context.
using CallSites = std::set<std::pair<std::string, unsigned>>;
using ResolvedCalls = std::map<std::string, std::map<std::string, CallSites>>;
ResolvedCalls resolvedCalls(const std::vector<TUSummary> &TUs, const RuleSet &Rules,
                            bool FromRegions);

} // namespace graphsafe::lint
