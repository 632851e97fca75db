// Suppression comments are read from every analysed file.
#include "Suppressions.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  graphsafe::lint::parseSuppressions(std::string(reinterpret_cast<const char *>(Data), Size));
  return 0;
}
