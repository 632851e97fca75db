// Turns a compile command into one clang 19 can parse for analysis: syntax
// only, its own resource headers, the shipped compatibility headers, and for
// CUDA sources a host-only parse against the CUDA installation.
#pragma once

#include "clang/Tooling/ArgumentsAdjusters.h"

#include <string>

namespace graphsafe::lint {

struct Toolchain {
  std::string ResourceDir; // clang's builtin headers
  std::string CompatDir;   // headers that stand in for missing ones
  std::string CudaPath;    // empty when no CUDA installation was found
};

// CudaPathOption overrides detection ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda).
Toolchain detectToolchain(const std::string &Argv0, const std::string &CudaPathOption);

clang::tooling::ArgumentsAdjuster makeArgumentsAdjuster(const Toolchain &TC);

bool isCudaSource(const std::string &File);

} // namespace graphsafe::lint
