#include "graphsafe/Finding.h"

#include <algorithm>
#include <tuple>

namespace graphsafe {

const char *severityName(Severity S) {
  switch (S) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "warning";
}

std::optional<Severity> parseSeverity(const std::string &Text) {
  if (Text == "note")
    return Severity::Note;
  if (Text == "warning")
    return Severity::Warning;
  if (Text == "error")
    return Severity::Error;
  return std::nullopt;
}

bool SourceLoc::operator<(const SourceLoc &O) const {
  return std::tie(File, Line, Column) < std::tie(O.File, O.Line, O.Column);
}

void Report::sort() {
  std::stable_sort(Findings.begin(), Findings.end(), [](const Finding &A, const Finding &B) {
    return std::tie(A.Loc, A.RuleId, A.Message, A.Test) <
           std::tie(B.Loc, B.RuleId, B.Message, B.Test);
  });
  Findings.erase(std::unique(Findings.begin(), Findings.end(),
                             // Runtime findings share an empty source location,
                             // so the message tells them apart; one line hit by
                             // two tests is a finding of each.
                             [](const Finding &A, const Finding &B) {
                               return A.Loc == B.Loc && A.RuleId == B.RuleId &&
                                      A.Message == B.Message && A.Test == B.Test;
                             }),
                 Findings.end());
}

bool Report::hasFindingAtOrAbove(Severity S) const {
  return std::any_of(Findings.begin(), Findings.end(),
                     [S](const Finding &F) { return F.Level >= S; });
}

} // namespace graphsafe
