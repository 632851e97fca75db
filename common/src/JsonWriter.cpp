#include "graphsafe/ReportWriter.h"

#include <nlohmann/json.hpp>

namespace graphsafe {

namespace {

nlohmann::json loc(const SourceLoc &L) {
  return {{"file", L.File}, {"line", L.Line}, {"column", L.Column}};
}

} // namespace

void writeJson(std::ostream &OS, const Report &R, const WriteOptions &Opts) {
  nlohmann::json Findings = nlohmann::json::array();
  for (const auto &F : R.Findings) {
    nlohmann::json J = {{"rule", F.RuleId},
                        {"severity", severityName(F.Level)},
                        {"message", F.Message},
                        {"location", loc(F.Loc)}};
    if (F.Runtime)
      J["runtime"] = {{"graph", F.Runtime->Graph},
                      {"node", F.Runtime->Node},
                      {"kernel", F.Runtime->Kernel},
                      {"buffer", F.Runtime->Buffer}};
    J["notes"] = nlohmann::json::array();
    for (const auto &N : F.Notes)
      J["notes"].push_back({{"message", N.Message}, {"location", loc(N.Loc)}});
    J["fixits"] = nlohmann::json::array();
    for (const auto &X : F.FixIts)
      J["fixits"].push_back(
          {{"begin", loc(X.Begin)}, {"end", loc(X.End)}, {"replacement", X.Replacement}});
    if (!F.Fix.empty())
      J["fix"] = F.Fix;
    if (!F.Processes.empty())
      J["processes"] = F.Processes;
    if (!F.Test.empty())
      J["test"] = F.Test;
    Findings.push_back(std::move(J));
  }
  nlohmann::json Errors = nlohmann::json::array();
  for (const auto &E : R.Errors)
    Errors.push_back({{"where", E.Where}, {"message", E.Message}});
  nlohmann::json Out = {{"tool", Opts.ToolName},
                        {"version", Opts.ToolVersion},
                        {"complete", R.Complete},
                        {"findings", Findings},
                        {"errors", Errors}};
  if (!R.Warnings.empty()) {
    Out["warnings"] = nlohmann::json::array();
    for (const auto &W : R.Warnings)
      Out["warnings"].push_back({{"where", W.Where}, {"message", W.Message}});
  }
  // Paths, names and messages come from files and traces that need not be
  // UTF-8: invalid bytes are replaced, so the report stays valid JSON.
  OS << Out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

} // namespace graphsafe
