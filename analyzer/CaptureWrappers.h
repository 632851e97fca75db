// Capture regions whose begin and end are calls of wrapper functions defined
// in other translation units (Paddle's BeginCUDAGraphCapture/
// EndCUDAGraphCapture, ONNX Runtime's OnRunStart/OnRunEnd). One TU sees the
// wrappers' bodies, another their callers; only the merged summaries can tell
// that the code between the two calls runs under capture.
#pragma once

#include "Summary.h"
#include "graphsafe/Rule.h"

#include <map>
#include <string>
#include <vector>

namespace graphsafe::lint {

// Copies of the functions whose context changes once wrappers are known
// program-wide, by USR: sites and calls between a begin wrapper's call and the
// matching end wrapper's call are in a region, and the host bookkeeping of
// functions that are themselves wrappers is dropped as capture mechanism.
std::map<std::string, FunctionSummary> regionsAcrossUnits(const std::vector<TUSummary> &TUs,
                                                          const RuleSet &Rules);

} // namespace graphsafe::lint
