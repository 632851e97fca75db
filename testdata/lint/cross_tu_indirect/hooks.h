#pragma once
#include <cuda_runtime.h>

#include <functional>
#include <vector>

// A hook registry: callables stored in one file, called from a capture in
// another.
extern std::function<void(cudaStream_t)> g_onStep;
struct Registry {
  std::function<void(cudaStream_t)> Flush;
};
extern Registry g_registry;
// Hooks a trainer object keeps in a list, added through its setter in one
// file and run by its captured step in another.
struct Trainer {
  std::vector<std::function<void(cudaStream_t)>> Hooks;
  void addHook(std::function<void(cudaStream_t)> H) { Hooks.push_back(std::move(H)); }
  void step(cudaStream_t s);
};
void configure(Trainer &T);
// A factory defined in hooks.cpp: the caller in train.cpp runs what it returns.
std::function<void(cudaStream_t)> makeFlush(bool Blocking);
void installHooks();
