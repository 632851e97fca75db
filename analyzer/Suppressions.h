// `// graphsafe: ignore[rule-id,...] reason` (`#` in Python) on a finding's
// line or the line above silences it. A suppression must say why; one that does not is itself
// reported, so silenced findings stay reviewable.
#pragma once

#include "graphsafe/Finding.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace graphsafe::lint {

struct Suppression {
  unsigned Line = 0;
  unsigned Column = 0;
  std::set<std::string> Rules; // "*" silences every rule.
  std::string Reason;
};

// Parses the suppression comments of one file's text.
std::vector<Suppression> parseSuppressions(const std::string &Text);

class SuppressionFilter {
public:
  // Drops suppressed findings and adds one finding (rule MissingReasonRule)
  // per suppression without a reason in the files it looked at.
  void apply(std::vector<Finding> &Findings, const std::vector<std::string> &ExtraFiles,
             const std::string &MissingReasonRule, Severity MissingReasonLevel);

private:
  const std::vector<Suppression> &of(const std::string &File);
  std::map<std::string, std::vector<Suppression>> Cache;
};

} // namespace graphsafe::lint
