// A baseline file is checked in and edited by hand: any content loads or is
// refused with a reason.
#include "graphsafe/Baseline.h"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const std::string Path = "/tmp/graphsafe-fuzz-baseline-" + std::to_string(::getpid());
  if (FILE *F = std::fopen(Path.c_str(), "wb")) {
    std::fwrite(Data, 1, Size, F);
    std::fclose(F);
  }
  graphsafe::Baseline B;
  std::string Error;
  if (B.load(Path, Error)) {
    graphsafe::Report R;
    graphsafe::Finding F;
    F.RuleId = "sync-tensor-read";
    F.Loc = {"/tmp/a.cpp", 3, 1};
    R.Findings.push_back(F);
    B.filter(R);
  }
  return 0;
}
