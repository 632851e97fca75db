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
#include <string>
#include <vector>

namespace clang {
class FileManager;
class PCHContainerOperations;
} // namespace clang

namespace graphsafe::lint {

class PreambleCache {
public:
  PreambleCache(const CacheStore &Store, std::string Fingerprint)
      : Store(Store), Fingerprint(std::move(Fingerprint)) {}

  // Points Invocation at a cached preamble for its main file, building and
  // caching one first when none fits and MayBuild. Leaves Invocation alone (a full parse)
  // when the file has no preamble or one cannot be built. Returns the files
  // the preamble read, which the parse itself no longer reads.
  std::vector<Dependency> apply(clang::CompilerInvocation &Invocation, clang::FileManager &Files,
                                std::shared_ptr<clang::PCHContainerOperations> PCHOps,
                                bool MayBuild) const;

private:
  const CacheStore &Store;
  std::string Fingerprint;
};

} // namespace graphsafe::lint
