#include "ResultCache.h"

#include "SummaryJson.h"

namespace graphsafe::lint {

namespace {
constexpr const char *Kind = "results";
}

std::optional<TUSummary> ResultCache::lookup(const std::string &Key) const {
  std::optional<std::string> Bytes = Store.read(Store.pathOf(Kind, Key, ".json"));
  if (!Bytes)
    return std::nullopt;
  nlohmann::json J = nlohmann::json::parse(*Bytes, nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded() || !J.is_object() || !J.contains("deps") || !J.contains("summary"))
    return std::nullopt;
  try {
    if (!dependenciesUnchanged(dependenciesFromJson(J["deps"])))
      return std::nullopt;
  } catch (const nlohmann::json::exception &) {
    return std::nullopt;
  }
  return summaryFromJson(J["summary"]);
}

void ResultCache::store(const std::string &Key, const TUSummary &S,
                        const std::vector<Dependency> &Deps) const {
  nlohmann::json J = {{"deps", dependenciesToJson(Deps)}, {"summary", summaryToJson(S)}};
  Store.write(Store.pathOf(Kind, Key, ".json"),
              J.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

} // namespace graphsafe::lint
