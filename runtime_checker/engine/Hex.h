// Device addresses are written as "0x..." everywhere in traces and reports.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace graphsafe::rt {

inline std::string hexAddress(uint64_t V) {
  char Buf[24];
  std::snprintf(Buf, sizeof Buf, "0x%llx", static_cast<unsigned long long>(V));
  return Buf;
}

} // namespace graphsafe::rt
