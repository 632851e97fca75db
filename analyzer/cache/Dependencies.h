// The files a parse read, with content hashes: what a cached result or
// preamble depends on beyond its key.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace clang {
class SourceManager;
}

namespace graphsafe::lint {

struct Dependency {
  std::string Path; // Absolute.
  std::string Hash; // Of the contents the parse saw.
};

// Every file the parse loaded, hashed from the buffers it actually parsed.
std::vector<Dependency> dependenciesOf(const clang::SourceManager &SM);

// Whether every file still has the contents it had (a deleted one has not).
bool dependenciesUnchanged(const std::vector<Dependency> &Deps);

nlohmann::json dependenciesToJson(const std::vector<Dependency> &Deps);
std::vector<Dependency> dependenciesFromJson(const nlohmann::json &J);

} // namespace graphsafe::lint
