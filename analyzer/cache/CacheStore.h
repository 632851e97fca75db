// The on-disk cache folder shared by the result and preamble caches: entries
// written whole or not at all (temporary file, then rename), so several
// graphlint processes at once, or one killed mid-write, never leave an entry
// that reads back corrupt; bounded in size, least recently used out first.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace graphsafe::lint {

class CacheStore {
public:
  // An empty Root disables the cache: every lookup misses, nothing is written.
  // Root is made absolute here: parsing may change the working directory.
  CacheStore(const std::string &Root, uint64_t MaxBytes);

  bool enabled() const { return !Root.empty(); }
  const std::string &root() const { return Root; }

  // Where an entry of this kind and key lives (it may not exist).
  std::string pathOf(llvm::StringRef Kind, llvm::StringRef Key, llvm::StringRef Ext) const;
  // A fresh temporary path beside Path, for building an entry in place.
  std::string temporaryFor(const std::string &Path) const;

  // The entry's bytes, marking it recently used; nothing if absent.
  std::optional<std::string> read(const std::string &Path) const;
  // Marks an entry recently used without reading it (a PCH clang reads itself).
  void touch(const std::string &Path) const;
  // Writes Bytes as Path atomically. False (and nothing written) on failure.
  // Synced to disk before it is renamed into place unless the caller's
  // entries carry a checksum of their own (a crash may leave a renamed file
  // whose data never reached the disk).
  bool write(const std::string &Path, llvm::StringRef Bytes, bool Sync = true) const;
  // Moves a finished temporary file into place as Path atomically.
  bool commit(const std::string &Temporary, const std::string &Path) const;

  // Removes the least recently used entries until the cache fits its bound,
  // and temporary files abandoned by killed processes.
  void trim() const;

private:
  std::string Root;
  uint64_t MaxBytes;
};

} // namespace graphsafe::lint
