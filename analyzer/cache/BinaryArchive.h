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

#include <llvm/ADT/StringRef.h>

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

} // namespace graphsafe::lint
