// Content hashes for cache keys: a TU's own text, its flags, every header it
// read, the rules and graphlint itself. Content, not timestamps: a `touch` or
// a fresh checkout must not invalidate anything, an edit must.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BLAKE3.h"

#include <optional>
#include <string>

namespace graphsafe::lint {

// Hex digest of Bytes.
std::string contentHash(llvm::StringRef Bytes);
// Hex digest of a file's contents; nothing when it cannot be read.
std::optional<std::string> fileHash(const std::string &Path);

// Hashes a sequence of fields; each is length-prefixed, so ("ab","c") and
// ("a","bc") differ.
class KeyBuilder {
public:
  KeyBuilder &add(llvm::StringRef Field);
  std::string final();

private:
  llvm::BLAKE3 Hasher;
};

} // namespace graphsafe::lint
