// Cached analysis results: a translation unit whose text, compile command,
// headers, rules and graphlint are all unchanged is not parsed again; its
// summary comes back from the cache. Findings are always recomputed from all
// summaries, so cross-TU reachability stays exact: a TU's summary holds only
// facts about its own code, never conclusions drawn from other TUs.
#pragma once

#include "CacheStore.h"
#include "Dependencies.h"
#include "Summary.h"

#include <optional>
#include <string>
#include <vector>

namespace graphsafe::lint {

class ResultCache {
public:
  explicit ResultCache(const CacheStore &Store) : Store(Store) {}

  // The summary cached under Key, when every file it depended on is unchanged.
  std::optional<TUSummary> lookup(const std::string &Key) const;
  void store(const std::string &Key, const TUSummary &S, const std::vector<Dependency> &Deps) const;

private:
  const CacheStore &Store;
};

} // namespace graphsafe::lint
