// The Python front end reads whatever a repository holds: every stage (parse,
// regions, types, checks, call graph, reachability) runs on arbitrary bytes.
#include "Reachability.h"
#include "python/PyAnalysis.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace graphsafe;

static RuleSet Rules;
static std::string Case;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // A file tree-sitter cannot read is handed to python3 to tell grammar gaps
  // from syntax errors; without it on PATH the fuzzer stays in process.
  setenv("PATH", "/nonexistent", 1);
  std::vector<RuleError> Errors;
  Rules = loadRules({GRAPHSAFE_RULES}, Errors);
  fs::path Dir = fs::temp_directory_path() / ("graphsafe-fuzz-py-" + std::to_string(getpid()));
  fs::create_directories(Dir);
  Case = (Dir / "case.py").string();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::ofstream(Case, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char *>(Data), static_cast<std::streamsize>(Size));
  auto R = lint::py::analyzePythonFiles({Case}, lint::py::SourceRoots::of({Case}, ""), Rules, 1);
  lint::findingsFromSummaries(R.Summaries, Rules, /*ExplainReach=*/true);
  return 0;
}
