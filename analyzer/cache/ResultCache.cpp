#include "ResultCache.h"

#include "SummaryJson.h"

namespace graphsafe::lint {

namespace {
constexpr const char *Kind = "results";
}

std::optional<TUSummary> ResultCache::lookup(const std::string &Key) const {
  std::optional<nlohmann::json> J = readFreshEntry(Store, Store.pathOf(Kind, Key, ".json"));
  if (!J || !J->contains("summary"))
    return std::nullopt;
  return summaryFromJson((*J)["summary"]);
}

void ResultCache::store(const std::string &Key, const TUSummary &S,
                        const std::vector<Dependency> &Deps) const {
  writeEntry(Store, Store.pathOf(Kind, Key, ".json"), {{"summary", summaryToJson(S)}}, Deps);
}

} // namespace graphsafe::lint
