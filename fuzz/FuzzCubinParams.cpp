// Cubins come from any module the program loads, including JIT output.
#include "CubinParams.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  graphsafe::inject::readCubinParamSizes(reinterpret_cast<const char *>(Data), Size);
  return 0;
}
