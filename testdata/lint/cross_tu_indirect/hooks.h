#pragma once
#include <cuda_runtime.h>

#include <functional>

// A hook registry: callables stored in one file, called from a capture in
// another.
extern std::function<void(cudaStream_t)> g_onStep;
struct Registry {
  std::function<void(cudaStream_t)> Flush;
};
extern Registry g_registry;
void installHooks();
