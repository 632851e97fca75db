// What one run's front ends produced, before reachability joins it: the unit
// a shard of a sharded run (`--shard K/N`) writes and `--merge` reads back.
// The merged analysis is the one the unsharded run holds, index for index, so
// the report made from it is the same.
#pragma once

#include "Summary.h"
#include "graphsafe/Finding.h"

#include <optional>
#include <string>
#include <vector>

namespace graphsafe::lint {

struct ShardSpec {
  unsigned K = 0, N = 1;
  bool mine(size_t Index) const { return Index % N == K; }
};

// "K/N" with 0 <= K < N; nothing when malformed.
std::optional<ShardSpec> parseShard(const std::string &Text);

struct Analysis {
  // Named files first, then the context analysed for them (the rest of the
  // compile database, the rest of the Python work tree).
  std::vector<std::string> CxxFiles, PyFiles;
  size_t NamedCxx = 0, NamedPy = 0;
  // Index-aligned with the files; a file another shard analysed has an empty
  // summary (no File) and no errors here.
  std::vector<TUSummary> CxxSummaries, PySummaries;
  std::vector<std::vector<ToolError>> CxxErrors, PyErrors;
  std::vector<ToolError> PyWarnings;
};

// Writes a shard's part of A; false with Error set when the file cannot be written.
bool writeShard(const std::string &Path, const ShardSpec &Shard, const std::string &Fingerprint,
                const Analysis &A, std::string &Error);

// Reads every shard of one sharded run into one Analysis. Fails, naming the
// file, when a file is not a shard, shards come from different inputs or
// graphlint builds, or a shard is missing or given twice.
bool mergeShards(const std::vector<std::string> &Paths, const std::string &Fingerprint,
                 Analysis &Out, std::string &Error);

} // namespace graphsafe::lint
