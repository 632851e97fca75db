// Branches that refill a cache when its key changed:
//
//   if (s_.last_x_dims != x_dims) { s_.last_x_dims = x_dims; s_.plan = build(...); s_.Y = ...; }
//   else { s_.Y = ...; }
//
// A kernel keeps what it derives from its input shapes (a cuDNN plan, output
// dimensions, the output it writes) in an object keyed by those shapes, and
// both branches keep that object in step with the call. Replays run the
// shapes the capture ran, so what the capture left there is what they use:
// these stores are no host state a replay should have advanced.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"

#include <vector>

namespace graphsafe::lint {

struct CacheRefill {
  unsigned Begin = 0, End = 0; // File offsets of the branches, [Begin, End).
  // The member holding the cache (`s_`); null when the key is a member of
  // the method's own object itself (`last_shape_`), whose fields are the cache.
  const clang::FieldDecl *Cache = nullptr;
};

std::vector<CacheRefill> findCacheRefills(const clang::Stmt *Body, const clang::SourceManager &SM);

// Whether storing into Target at L keeps one of those caches.
bool refillsCache(const std::vector<CacheRefill> &Refills, const clang::Expr *Target,
                  clang::SourceLocation L, const clang::SourceManager &SM);

} // namespace graphsafe::lint
