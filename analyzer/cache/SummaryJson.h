// TUSummary to and from JSON, so a translation unit's facts can be cached and
// merged later without parsing it again. Lossless: a summary read back gives
// the same findings as the one written.
#pragma once

#include "Summary.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace graphsafe::lint {

nlohmann::json summaryToJson(const TUSummary &S);
// Nothing when the JSON is not a summary this version wrote.
std::optional<TUSummary> summaryFromJson(const nlohmann::json &J);

} // namespace graphsafe::lint
