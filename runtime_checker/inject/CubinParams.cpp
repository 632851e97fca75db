#include "CubinParams.h"

#include <cstdint>
#include <cstring>
#include <elf.h>

namespace graphsafe::inject {

namespace {

// .nv.info attribute encoding: a format byte, an attribute byte, then either
// a 2-byte value (formats 1-3) or a 2-byte length and that many bytes (4).
constexpr uint8_t FormatSizedValue = 0x04;
constexpr uint8_t AttrKernelParamInfo = 0x17;

template <typename T> bool readAt(const char *Data, size_t Size, size_t Offset, T &Out) {
  if (Offset > Size || Size - Offset < sizeof(T))
    return false;
  std::memcpy(&Out, Data + Offset, sizeof(T));
  return true;
}

std::vector<size_t> paramSizes(const char *Info, size_t Size) {
  std::map<uint16_t, size_t> ByOrdinal;
  for (size_t P = 0; P + 4 <= Size;) {
    uint8_t Format = static_cast<uint8_t>(Info[P]), Attr = static_cast<uint8_t>(Info[P + 1]);
    if (Format != FormatSizedValue) {
      P += 4;
      continue;
    }
    uint16_t Length = 0;
    readAt(Info, Size, P + 2, Length);
    size_t Body = P + 4;
    // KPARAM_INFO: u32 index, u16 ordinal, u16 offset, u32 flags with the
    // parameter's size in bits 18..31.
    uint16_t Ordinal = 0;
    uint32_t Flags = 0;
    if (Attr == AttrKernelParamInfo && Length >= 12 && readAt(Info, Size, Body + 4, Ordinal) &&
        readAt(Info, Size, Body + 8, Flags))
      ByOrdinal[Ordinal] = (Flags >> 18) & 0x3fff;
    P = Body + Length;
  }
  std::vector<size_t> Out;
  for (const auto &[Ordinal, Bytes] : ByOrdinal) {
    if (Ordinal != Out.size())
      return {}; // A gap: better no layout than a wrong one.
    Out.push_back(Bytes);
  }
  return Out;
}

} // namespace

std::map<std::string, std::vector<size_t>> readCubinParamSizes(const char *Data, size_t Size) {
  std::map<std::string, std::vector<size_t>> Out;
  Elf64_Ehdr H;
  if (!Data || !readAt(Data, Size, 0, H) || std::memcmp(H.e_ident, ELFMAG, SELFMAG) != 0 ||
      H.e_ident[EI_CLASS] != ELFCLASS64 || H.e_shentsize != sizeof(Elf64_Shdr))
    return Out;
  // Every offset is checked against Size before it is added to: a crafted
  // header must not wrap an offset around into memory that is not the cubin.
  if (H.e_shoff > Size)
    return Out;
  const size_t Headers = (Size - H.e_shoff) / sizeof(Elf64_Shdr);
  Elf64_Shdr Names;
  if (H.e_shstrndx >= Headers ||
      !readAt(Data, Size, H.e_shoff + size_t(H.e_shstrndx) * sizeof(Elf64_Shdr), Names) ||
      Names.sh_offset > Size)
    return Out;
  static const char Prefix[] = ".nv.info.";
  for (size_t I = 0; I < H.e_shnum && I < Headers; ++I) {
    Elf64_Shdr S;
    if (!readAt(Data, Size, H.e_shoff + I * sizeof(Elf64_Shdr), S) || S.sh_name >= Names.sh_size ||
        S.sh_name >= Size - Names.sh_offset || S.sh_offset > Size || S.sh_size > Size - S.sh_offset)
      continue;
    const char *Name = Data + Names.sh_offset + S.sh_name;
    size_t MaxLen = Size - (Names.sh_offset + S.sh_name);
    size_t Len = strnlen(Name, MaxLen);
    if (Len == MaxLen || std::strncmp(Name, Prefix, sizeof Prefix - 1) != 0)
      continue;
    std::vector<size_t> Sizes = paramSizes(Data + S.sh_offset, S.sh_size);
    if (!Sizes.empty())
      Out[std::string(Name + sizeof Prefix - 1, Len - (sizeof Prefix - 1))] = std::move(Sizes);
  }
  return Out;
}

} // namespace graphsafe::inject
