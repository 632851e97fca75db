#include "KernelParams.h"

#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace graphsafe::inject {

namespace {

std::mutex M;
std::unordered_map<CUfunction, std::vector<size_t>> Layouts; // parameter sizes

const std::vector<size_t> &layoutOf(CUfunction F) {
  std::lock_guard<std::mutex> L(M);
  auto [It, New] = Layouts.try_emplace(F);
  if (New)
    for (size_t I = 0;; ++I) {
      size_t Offset = 0, Size = 0;
      if (cuFuncGetParamInfo(F, I, &Offset, &Size) != CUDA_SUCCESS)
        break;
      It->second.push_back(Size);
    }
  return It->second;
}

// The CUDA runtime the program loaded (libcudart.so.*), found among the
// loaded objects rather than by symbol lookup: the injection library must not
// link a runtime of its own, whose registry would not know the program's stubs.
struct Runtime {
  std::string Path;
  int (*GetFuncBySymbol)(void **, const void *) = nullptr;
  int (*PeekAtLastError)() = nullptr;
  int (*GetLastError)() = nullptr;
};

const Runtime &programRuntime() {
  static Runtime R = [] {
    Runtime Out;
    std::string Path;
    dl_iterate_phdr(
        [](dl_phdr_info *Info, size_t, void *Data) {
          if (Info->dlpi_name && std::strstr(Info->dlpi_name, "libcudart.so")) {
            *static_cast<std::string *>(Data) = Info->dlpi_name;
            return 1;
          }
          return 0;
        },
        &Path);
    void *H = Path.empty() ? nullptr : dlopen(Path.c_str(), RTLD_NOW | RTLD_NOLOAD);
    if (!H)
      return Out;
    Out.GetFuncBySymbol =
        reinterpret_cast<int (*)(void **, const void *)>(dlsym(H, "cudaGetFuncBySymbol"));
    Out.PeekAtLastError = reinterpret_cast<int (*)()>(dlsym(H, "cudaPeekAtLastError"));
    Out.GetLastError = reinterpret_cast<int (*)()>(dlsym(H, "cudaGetLastError"));
    if (!Out.GetFuncBySymbol || !Out.PeekAtLastError || !Out.GetLastError)
      Out = Runtime{};
    else
      Out.Path = Path;
    return Out;
  }();
  return R;
}

std::unordered_map<const void *, CUfunction> Stubs;
std::unordered_map<std::string, CUfunction> ByName;
LaunchStats Stats;

} // namespace

LaunchStats launchStats() {
  std::lock_guard<std::mutex> L(M);
  LaunchStats Out = Stats;
  Out.Runtime = programRuntime().Path;
  return Out;
}

void countLaunch() {
  std::lock_guard<std::mutex> L(M);
  ++Stats.Launches;
}

void scanKernelParams(CUfunction F, void **Params, std::set<uint64_t> &Out,
                      const PointerFilter &Keep) {
  if (!F || !Params)
    return;
  const std::vector<size_t> &Sizes = layoutOf(F);
  for (size_t I = 0; I < Sizes.size(); ++I) {
    const auto *Bytes = static_cast<const unsigned char *>(Params[I]);
    if (!Bytes)
      continue;
    for (size_t B = 0; B + 8 <= Sizes[I]; B += 8) {
      uint64_t V;
      std::memcpy(&V, Bytes + B, 8);
      if (V && Keep(V))
        Out.insert(V);
    }
  }
}

void rememberFunction(CUfunction F, const char *Name) {
  if (!F || !Name)
    return;
  std::lock_guard<std::mutex> L(M);
  ByName.emplace(Name, F);
}

CUfunction functionOfStub(const void *Stub, const char *SymbolName) {
  {
    std::lock_guard<std::mutex> L(M);
    if (auto It = Stubs.find(Stub); It != Stubs.end())
      return It->second;
  }
  const Runtime &R = programRuntime();
  // With an error pending, a failing lookup would replace it; try again later.
  if (!R.GetFuncBySymbol || R.PeekAtLastError() != 0) {
    std::lock_guard<std::mutex> L(M);
    ++Stats.Deferred;
    return nullptr;
  }
  void *F = nullptr;
  int Err = R.GetFuncBySymbol(&F, Stub);
  if (Err != 0) {
    R.GetLastError(); // Back to the success state the program had.
    F = nullptr;
  }
  std::lock_guard<std::mutex> L(M);
  if (!F && SymbolName)
    if (auto It = ByName.find(SymbolName); It != ByName.end())
      F = It->second;
  Stubs[Stub] = static_cast<CUfunction>(F);
  ++(F ? Stats.Resolved : Stats.Unresolved);
  if (Err)
    Stats.LastLookupError = Err;
  return static_cast<CUfunction>(F);
}

} // namespace graphsafe::inject
