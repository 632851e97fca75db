// Runs the graphlint binary the way users do and captures what it prints.
#pragma once

#include <string>
#include <vector>

namespace graphsafe::test {

struct RunResult {
  int ExitCode = -1;
  std::string Stdout;
  std::string Stderr;
};

RunResult runGraphlint(const std::vector<std::string> &Args);

// Compiler flags for the lint cases: C++17, libtorch's C++ API, the shared prelude.
std::vector<std::string> lintCompilerFlags();

std::string readFile(const std::string &Path);
std::string makeTempDir();

} // namespace graphsafe::test
