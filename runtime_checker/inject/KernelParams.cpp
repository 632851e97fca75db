#include "KernelParams.h"

#include "CubinParams.h"

#include <atomic>
#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace graphsafe::inject {

namespace {

std::mutex M;
std::unordered_map<CUfunction, std::vector<size_t>> Layouts; // parameter sizes

std::map<std::string, std::vector<size_t>> &sizesByName() {
  static auto &Map = *new std::map<std::string, std::vector<size_t>>;
  return Map;
}

// A CUDA runtime, asked through its own entry points. The injection library
// links none of its own: a runtime's registry knows only the stubs of the code
// linked against it, and libraries may carry a static runtime (libtorch_cuda,
// cuBLAS) beside the shared libcudart.so.
struct Runtime {
  std::string Path;
  int (*GetFuncBySymbol)(void **, const void *) = nullptr;
  int (*PeekAtLastError)() = nullptr;
  int (*GetLastError)() = nullptr;
  bool usable() const { return GetFuncBySymbol && PeekAtLastError && GetLastError; }
};

Runtime runtimeIn(const std::string &Path) {
  Runtime Out;
  void *H = Path.empty() ? nullptr : dlopen(Path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (!H)
    return Out;
  Out.GetFuncBySymbol =
      reinterpret_cast<int (*)(void **, const void *)>(dlsym(H, "cudaGetFuncBySymbol"));
  Out.PeekAtLastError = reinterpret_cast<int (*)()>(dlsym(H, "cudaPeekAtLastError"));
  Out.GetLastError = reinterpret_cast<int (*)()>(dlsym(H, "cudaGetLastError"));
  Out.Path = Path;
  return Out;
}

// The shared libcudart.so the process loaded, if any.
const Runtime &sharedRuntime() {
  static const Runtime &R = *new Runtime([] {
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
    return runtimeIn(Path);
  }());
  return R;
}

// The runtime that registered Stub: the one exported by the module holding
// the stub's code when it carries one, else the shared runtime.
const Runtime &runtimeFor(const void *Stub) {
  static auto &ByModule = *new std::unordered_map<std::string, Runtime>;
  static auto &Lock = *new std::mutex;
  Dl_info Info;
  if (!dladdr(Stub, &Info) || !Info.dli_fname)
    return sharedRuntime();
  std::lock_guard<std::mutex> L(Lock);
  auto [It, New] = ByModule.try_emplace(Info.dli_fname);
  if (New)
    It->second = runtimeIn(Info.dli_fname);
  return It->second.usable() ? It->second : sharedRuntime();
}

std::unordered_map<const void *, CUfunction> Stubs;
std::unordered_map<std::string, CUfunction> ByName;
LaunchStats Stats;
std::atomic<uint64_t> Launches{0}, DriverLaunches{0}; // Counted on every launch, so no lock.

} // namespace

LaunchStats launchStats() {
  std::lock_guard<std::mutex> L(M);
  LaunchStats Out = Stats;
  Out.Launches = Launches;
  Out.DriverLaunches = DriverLaunches;
  Out.Runtime = sharedRuntime().Path;
  return Out;
}

void countLaunch(bool Driver) {
  (Driver ? DriverLaunches : Launches).fetch_add(1, std::memory_order_relaxed);
}

void scanKernelParams(const std::vector<size_t> &Sizes, void **Params, std::set<uint64_t> &Out,
                      const PointerFilter &Keep) {
  if (!Params)
    return;
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

void scanKernelParams(CUfunction F, void **Params, std::set<uint64_t> &Out,
                      const PointerFilter &Keep) {
  if (F)
    scanKernelParams(paramSizesOf(F), Params, Out, Keep);
}

CUfunction functionForLaunch(CUfunction F) {
  if (!F)
    return F;
  static std::mutex CacheMutex;
  static std::unordered_map<CUfunction, CUfunction> Cache;
  std::lock_guard<std::mutex> L(CacheMutex);
  auto [It, New] = Cache.try_emplace(F, F);
  if (New) {
    size_t Offset = 0, Size = 0;
    CUresult R = cuFuncGetParamInfo(F, 0, &Offset, &Size);
    CUfunction G = nullptr;
    if (R != CUDA_SUCCESS && R != CUDA_ERROR_INVALID_VALUE &&
        cuKernelGetFunction(&G, reinterpret_cast<CUkernel>(F)) == CUDA_SUCCESS && G) {
      It->second = G;
      std::lock_guard<std::mutex> S(M);
      ++Stats.KernelHandles;
    }
  }
  return It->second;
}

const std::vector<size_t> &paramSizesOf(CUfunction F) {
  std::lock_guard<std::mutex> L(M);
  auto [It, New] = Layouts.try_emplace(F);
  if (New) {
    for (size_t I = 0;; ++I) {
      size_t Offset = 0, Size = 0;
      if (cuFuncGetParamInfo(F, I, &Offset, &Size) != CUDA_SUCCESS)
        break;
      It->second.push_back(Size);
    }
    // Where the driver cannot say (older cubins), the layout read from the
    // module's cubin by the kernel's name, as the runtime path does.
    const char *Name = nullptr;
    if (It->second.empty() && cuFuncGetName(&Name, F) == CUDA_SUCCESS && Name) {
      auto ByName = sizesByName().find(Name);
      if (ByName != sizesByName().end()) {
        It->second = ByName->second;
        ++Stats.ByCubinName;
      }
    }
    if (It->second.empty())
      ++Stats.NoLayout;
  }
  return It->second;
}

void rememberModule(const char *Cubin, size_t Size) {
  auto Sizes = readCubinParamSizes(Cubin, Size);
  std::lock_guard<std::mutex> L(M);
  for (auto &[Name, S] : Sizes)
    sizesByName().emplace(Name, std::move(S));
}

const std::vector<size_t> *paramSizesByName(const char *Kernel) {
  if (!Kernel)
    return nullptr;
  std::lock_guard<std::mutex> L(M);
  auto It = sizesByName().find(Kernel);
  if (It == sizesByName().end())
    return nullptr;
  ++Stats.ByCubinName;
  return &It->second; // Never erased: stays valid.
}

void rememberFunction(CUfunction F, const char *Name) {
  if (!F || !Name)
    return;
  std::lock_guard<std::mutex> L(M);
  ByName.emplace(Name, F);
}

// A pointer that is no module's code is not a stub but a kernel handle
// (cudaKernel_t, which is a CUkernel): what CUDA 13's launch stubs pass.
CUfunction functionOfHandle(const void *Handle) {
  CUfunction F = nullptr;
  if (cuKernelGetFunction(&F, reinterpret_cast<CUkernel>(const_cast<void *>(Handle))) !=
      CUDA_SUCCESS)
    return nullptr;
  return F;
}

CUfunction functionOfStub(const void *Stub, const char *SymbolName) {
  {
    std::lock_guard<std::mutex> L(M);
    if (auto It = Stubs.find(Stub); It != Stubs.end())
      return It->second;
  }
  CUfunction F = nullptr;
  int Err = 0;
  Dl_info Info{};
  if (!dladdr(Stub, &Info) || !Info.dli_fname) {
    Info.dli_fname = nullptr;
    F = functionOfHandle(Stub);
  } else {
    const Runtime &R = runtimeFor(Stub);
    // With an error pending, a failing lookup would replace it; try again later.
    if (!R.usable() || R.PeekAtLastError() != 0) {
      std::lock_guard<std::mutex> L(M);
      ++Stats.Deferred;
      return nullptr;
    }
    void *Found = nullptr;
    Err = R.GetFuncBySymbol(&Found, Stub);
    if (Err != 0)
      R.GetLastError(); // Back to the success state the program had.
    else
      F = static_cast<CUfunction>(Found);
  }
  std::lock_guard<std::mutex> L(M);
  if (!F && SymbolName)
    if (auto It = ByName.find(SymbolName); It != ByName.end())
      F = It->second;
  if (!F && Stats.UnresolvedModules.size() < 4)
    Stats.UnresolvedModules.insert(Info.dli_fname ? Info.dli_fname : "(kernel handle)");
  Stubs[Stub] = F;
  ++(F ? Stats.Resolved : Stats.Unresolved);
  if (Err)
    Stats.LastLookupError = Err;
  return F;
}

} // namespace graphsafe::inject
