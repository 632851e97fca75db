#include "PyResultCache.h"

#include "PyIndexArchive.h"
#include "cache/BinaryArchive.h"
#include "cache/ContentHash.h"
#include "cache/SummaryArchive.h"

#include <llvm/Support/xxhash.h>

namespace graphsafe::lint::py {

template <class A> void serialize(A &Ar, PyReads &R) { Ar(R.Modules, R.Parts); }
template <class A> void serialize(A &Ar, PyFileRecord &R) { Ar(R.Hash, R.Interface, R.Reads); }
template <class A> void serialize(A &Ar, PyManifest &M) {
  Ar(M.Files, M.LearnedAfter, M.Learned, M.NeverNamed, M.SwapsFrom, M.SwapReads, M.Swapped);
}
template <class A> void serialize(A &Ar, PyModuleEntry &E) {
  Ar(E.Parsed, E.Index, E.Errors, E.Warnings, E.Lines, E.Learned, E.Summary, E.Parts);
}

namespace {

constexpr const char *Kind = "python";

// A checksum leads each entry: a torn write is detected when read, so writes
// skip the fsync that a large tree's thousand entries would each pay. Only
// torn writes, not forgeries, are guarded against: a 64-bit xxh3, which
// checks a warm run's 45 MB several times faster than a cryptographic hash.
std::string checksum(llvm::StringRef Body) {
  std::uint64_t Sum = llvm::xxh3_64bits(Body);
  return std::string(reinterpret_cast<const char *>(&Sum), sizeof Sum);
}

template <class T> std::optional<T> readEntry(const CacheStore &Store, const std::string &Path) {
  constexpr size_t SumSize = sizeof(std::uint64_t);
  std::optional<std::string> Bytes = Store.read(Path);
  if (!Bytes || Bytes->size() < SumSize)
    return std::nullopt;
  llvm::StringRef Body = llvm::StringRef(*Bytes).drop_front(SumSize);
  if (checksum(Body) != llvm::StringRef(*Bytes).take_front(SumSize))
    return std::nullopt;
  T Value;
  if (!unpackBinary(Body, Value))
    return std::nullopt;
  return Value;
}

template <class T>
void writeEntry(const CacheStore &Store, const std::string &Path, const T &Value) {
  std::string Body = packBinary(Value);
  Store.write(Path, checksum(Body) + Body, /*Sync=*/false);
}

} // namespace

std::optional<PyManifest> PyResultCache::manifest() const {
  return readEntry<PyManifest>(Store, Store.pathOf(Kind, Program, ".manifest"));
}

void PyResultCache::storeManifest(const PyManifest &M) const {
  writeEntry(Store, Store.pathOf(Kind, Program, ".manifest"), M);
}

std::string PyResultCache::entryKey(const std::string &Path, const std::string &Hash,
                                    const std::string &Module) const {
  return KeyBuilder().add(Program).add(Path).add(Hash).add(Module).final();
}

std::optional<PyModuleEntry> PyResultCache::entry(const std::string &Path, const std::string &Hash,
                                                  const std::string &Module) const {
  return readEntry<PyModuleEntry>(Store, Store.pathOf(Kind, entryKey(Path, Hash, Module), ".bin"));
}

void PyResultCache::storeEntry(const std::string &Path, const std::string &Hash,
                               const std::string &Module, const PyModuleEntry &E) const {
  writeEntry(Store, Store.pathOf(Kind, entryKey(Path, Hash, Module), ".bin"), E);
}

} // namespace graphsafe::lint::py
