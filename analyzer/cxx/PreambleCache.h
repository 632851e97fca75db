// Precompiled preambles on disk: the #include block at the top of a file
// (all of torch/torch.h, for a libtorch TU) is parsed once into a PCH and
// reused by later runs, also in other processes, while the file's own code
// is parsed afresh. Keyed by the compiler invocation and the preamble's
// text; valid while every header it read has the contents it had.
#pragma once

#include "cache/CacheStore.h"
#include "cache/Dependencies.h"

#include "clang/Frontend/CompilerInvocation.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class FileManager;
class PCHContainerOperations;
} // namespace clang

namespace graphsafe::lint {

struct PreambleUse {
  // The files the preamble read, which the parse itself no longer reads.
  std::vector<Dependency> Headers;
  // The file has a preamble and none is cached for it yet (build() would
  // make one); false for a file without one.
  bool Missing = false;
};

class PreambleCache {
public:
  PreambleCache(const CacheStore &Store, std::string Fingerprint)
      : Store(Store), Fingerprint(std::move(Fingerprint)) {}

  // Points Invocation at a cached preamble for its main file; leaves it alone
  // (a full parse) when there is none. Never builds one: a build costs a
  // parse of its own, paid in the background instead (PreambleBuilder.h).
  PreambleUse apply(clang::CompilerInvocation &Invocation, clang::FileManager &Files) const;

  // Builds and caches the preamble of Invocation's main file, unless a valid
  // one is cached or another process is building it. False when nothing was
  // built.
  bool build(const clang::CompilerInvocation &Invocation, clang::FileManager &Files,
             std::shared_ptr<clang::PCHContainerOperations> PCHOps) const;

private:
  struct Slot;
  std::optional<Slot> locate(const clang::CompilerInvocation &Invocation,
                             clang::FileManager &Files) const;

  const CacheStore &Store;
  std::string Fingerprint;
};

} // namespace graphsafe::lint
