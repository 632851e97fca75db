// Cache entries as cereal binary archives: read straight into the structs,
// with no document tree between the bytes and them. A warm run on a large
// tree is mostly reading entries back, and a DOM (JSON or MessagePack) made
// every string twice. The bytes are private to one graphlint build (its
// fingerprint is in every key), so the format needs no stability across
// builds; what guards against a torn or foreign file is the checksum the
// caller puts in front, and the exceptions caught here.
#pragma once

#include <cereal/archives/binary.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/set.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/utility.hpp>
#include <cereal/types/vector.hpp>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Compression.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <new>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>

namespace graphsafe::lint {

template <class... T> std::string packBinary(const T &...Values) {
  std::ostringstream OS(std::ios::binary);
  {
    cereal::BinaryOutputArchive Ar(OS);
    Ar(Values...);
  }
  return std::move(OS).str();
}

namespace detail {
// A read-only stream over bytes someone else owns: no copy of an entry.
class BytesBuf : public std::streambuf {
public:
  explicit BytesBuf(llvm::StringRef Bytes) {
    char *B = const_cast<char *>(Bytes.data());
    setg(B, B, B + Bytes.size());
  }
};
} // namespace detail

// False when Bytes are not what packBinary wrote for these types (short,
// or a length past the end): nothing then is to be trusted in Values.
// Trailing bytes are an error too.
template <class... T> bool unpackBinary(llvm::StringRef Bytes, T &...Values) {
  detail::BytesBuf Buf(Bytes);
  std::istream In(&Buf);
  try {
    cereal::BinaryInputArchive Ar(In);
    Ar(Values...);
  } catch (const cereal::Exception &) {
    return false;
  } catch (const std::length_error &) {
    return false;
  } catch (const std::bad_alloc &) {
    return false;
  }
  return In.peek() == std::char_traits<char>::eof();
}

// A value held packed while memory is short (summaries waiting for the trees
// they were made from to be freed): its archive, compressed with zstd where
// this LLVM has it (summaries repeat paths and names, and shrink several
// times over), as it is otherwise.
struct PackedValue {
  llvm::SmallVector<std::uint8_t, 0> Bytes;
  size_t Size = 0; // of the archive before compression; 0: not compressed
};

template <class T> PackedValue packCompressed(const T &Value) {
  std::string Archive = packBinary(Value);
  PackedValue Out;
  llvm::ArrayRef<std::uint8_t> In(reinterpret_cast<const std::uint8_t *>(Archive.data()),
                                  Archive.size());
  if (llvm::compression::zstd::isAvailable()) {
    // compress leaves room for the worst case; held for long, the bytes are
    // copied to a buffer of their own size.
    llvm::SmallVector<std::uint8_t, 0> Compressed;
    llvm::compression::zstd::compress(In, Compressed, /*Level=*/1);
    Out.Bytes.assign(Compressed.begin(), Compressed.end());
    Out.Size = Archive.size();
  } else {
    Out.Bytes.assign(In.begin(), In.end());
  }
  return Out;
}

// False when Packed is not what packCompressed wrote for T.
template <class T> bool unpackCompressed(const PackedValue &Packed, T &Value) {
  if (!Packed.Size)
    return unpackBinary(llvm::toStringRef(Packed.Bytes), Value);
  llvm::SmallVector<std::uint8_t, 0> Archive;
  if (llvm::Error E = llvm::compression::zstd::decompress(Packed.Bytes, Archive, Packed.Size)) {
    llvm::consumeError(std::move(E));
    return false;
  }
  return unpackBinary(llvm::toStringRef(Archive), Value);
}

} // namespace graphsafe::lint
