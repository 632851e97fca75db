// A baseline lets a large codebase adopt a checker without fixing every old
// finding first: findings recorded in the baseline are not reported again.
// Fingerprints use the rule, the file and the text of the line, not the line
// number, so unrelated edits above a finding do not resurrect it.
#pragma once

#include "graphsafe/Finding.h"

#include <map>
#include <string>
#include <tuple>

namespace graphsafe {

class Baseline {
public:
  // Returns false and sets Error (with file and reason) when the file is unusable.
  bool load(const std::string &Path, std::string &Error);
  bool save(const std::string &Path, const Report &R, std::string &Error) const;

  // Removes baselined findings from R; returns how many were removed.
  size_t filter(Report &R) const;

  void setRoot(const std::string &Root) { this->Root = Root; }

private:
  using Key = std::tuple<std::string, std::string, std::string>; // rule, file, code
  Key keyOf(const Finding &F) const;

  std::map<Key, unsigned> Counts;
  std::string Root;
};

} // namespace graphsafe
