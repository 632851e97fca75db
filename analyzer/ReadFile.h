// A whole file's bytes in one allocation and (usually) one read: a warm run
// reads every source file and every cache entry of a large tree, and a
// stringstream copying them through a growing buffer was a sixth of it.
#pragma once

#include <optional>
#include <string>

namespace graphsafe::lint {

// Nothing when the file cannot be opened or read.
std::optional<std::string> readFileBytes(const std::string &Path);

} // namespace graphsafe::lint
