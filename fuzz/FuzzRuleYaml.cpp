// Rule files are user input (house rules in --rules): any text gives rules or
// errors with a line, never a crash.
#include "graphsafe/Rule.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  graphsafe::RuleSet Rules;
  std::vector<graphsafe::RuleError> Errors;
  graphsafe::parseRuleText(std::string(reinterpret_cast<const char *>(Data), Size), "fuzz.yaml",
                           Rules, Errors);
  return 0;
}
