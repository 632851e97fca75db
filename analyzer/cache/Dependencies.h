// The files a parse read, with content hashes: what a cached result or
// preamble depends on beyond its key.
#pragma once

#include "CacheStore.h"

#include <nlohmann/json.hpp>

#include <optional>
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

// A cache entry that records what it depends on: Body is written whole with
// Deps beside it (under "deps"), and read back only while every one of those
// files has the contents it had (a deleted one has not). A damaged entry or
// one without dependencies reads as absent.
bool writeEntry(const CacheStore &Store, const std::string &Path, nlohmann::json Body,
                const std::vector<Dependency> &Deps);
std::optional<nlohmann::json> readFreshEntry(const CacheStore &Store, const std::string &Path,
                                             std::vector<Dependency> *Deps = nullptr);

} // namespace graphsafe::lint
