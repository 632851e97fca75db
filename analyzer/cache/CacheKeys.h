// What a cached result is keyed on, besides the files it read: graphlint
// itself and the rules it ran with.
#pragma once

#include <string>
#include <vector>

namespace graphsafe::lint {

// graphlint's version and its executable (size and time): a rebuilt
// graphlint may analyse differently even at the same version number.
std::string toolFingerprint();

// Every file in the rule folders, by content.
std::string rulesFingerprint(const std::vector<std::string> &RuleDirs);

} // namespace graphsafe::lint
