// Finds the device pointers a kernel launch passes. ATen and cuBLAS pass
// structs by value (hundreds of bytes), so every 8-byte-aligned word of every
// parameter is a candidate, kept only where it falls inside a live allocation.
// Parameter layouts are looked up once per function and cached.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace graphsafe::inject {

using PointerFilter = std::function<bool(uint64_t)>;

// Adds to Out every candidate word of the launch's parameters Keep accepts.
void scanKernelParams(CUfunction F, void **Params, std::set<uint64_t> &Out,
                      const PointerFilter &Keep);
void scanKernelParams(const std::vector<size_t> &Sizes, void **Params, std::set<uint64_t> &Out,
                      const PointerFilter &Keep);

// Parameter sizes of F (cached), and of kernels known by name only, learned
// from the cubins of loaded modules (see CubinParams.h).
// The runtime launches through the driver with CUkernel handles (context-
// independent loading) where cuLaunchKernel takes a CUfunction; the driver's
// CUfunction for this context answers cuFuncGetParamInfo and cuFuncGetName.
CUfunction functionForLaunch(CUfunction F);
const std::vector<size_t> &paramSizesOf(CUfunction F);
void rememberModule(const char *Cubin, size_t Size);
const std::vector<size_t> *paramSizesByName(const char *Kernel);

// The driver function behind a runtime launch's host stub, or null. Asks the
// runtime the program itself uses, and leaves the program's last-error state
// exactly as it was: a lookup that fails (stubs of a statically linked
// runtime such as cuBLAS's own) is forgotten, never seen by the program.
// Failing that, a function of the same name seen in a graph node.
CUfunction functionOfStub(const void *Stub, const char *SymbolName);

// Functions seen in graph nodes, by name: the last resort of functionOfStub.
void rememberFunction(CUfunction F, const char *Name);

// How eager launches were resolved, for the trace's closing statistics.
struct LaunchStats {
  uint64_t Launches = 0, DriverLaunches = 0, Resolved = 0, Unresolved = 0, Deferred = 0;
  uint64_t ByCubinName = 0;   // Launches scanned with sizes read from their module's cubin.
  uint64_t KernelHandles = 0; // Launch handles that were CUkernels, resolved to functions.
  uint64_t NoLayout = 0;      // Functions whose parameter layout nothing could tell.
  int LastLookupError = 0;
  std::string Runtime;                     // The shared runtime library, "" when none was loaded.
  std::set<std::string> UnresolvedModules; // Where stubs that could not be resolved live.
};
LaunchStats launchStats();
void countLaunch(bool Driver = false);

} // namespace graphsafe::inject
