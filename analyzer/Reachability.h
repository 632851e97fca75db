// Joins the summaries of all translation units: every site inside a region,
// and every site in a function reachable from one, becomes a finding whose
// notes walk the call chain back to the region.
#pragma once

#include "Summary.h"
#include "graphsafe/Finding.h"
#include "graphsafe/Rule.h"

#include <vector>

namespace graphsafe::lint {

// ExplainReach adds a capture-reach-unknown note at every call under capture
// whose callee the analysed code never shows.
std::vector<Finding> findingsFromSummaries(const std::vector<TUSummary> &TUs, const RuleSet &Rules,
                                           bool ExplainReach = false);

} // namespace graphsafe::lint
