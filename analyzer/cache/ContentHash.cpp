#include "ContentHash.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>

namespace graphsafe::lint {

namespace {

// 128 bits: collisions are not a practical concern for a local cache.
std::string hex(const llvm::BLAKE3Result<16> &R) { return llvm::toHex(R, /*LowerCase=*/true); }

} // namespace

std::string contentHash(llvm::StringRef Bytes) {
  return hex(llvm::BLAKE3::hash<16>(llvm::arrayRefFromStringRef(Bytes)));
}

std::optional<std::string> fileHash(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  return contentHash((*Buf)->getBuffer());
}

KeyBuilder &KeyBuilder::add(llvm::StringRef Field) {
  uint64_t Size = Field.size();
  Hasher.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(&Size), sizeof Size));
  Hasher.update(llvm::arrayRefFromStringRef(Field));
  return *this;
}

std::string KeyBuilder::final() { return hex(Hasher.final<16>()); }

} // namespace graphsafe::lint
