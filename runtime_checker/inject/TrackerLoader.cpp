#include "TrackerLoader.h"

#include "AllocatorBlocks.h"
#include "AllocatorSink.h"
#include "TraceWriter.h"

#include <nlohmann/json.hpp>

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace graphsafe::inject {

namespace {

constexpr const char *C10Cuda = "libc10_cuda.so";

void say(const std::string &Message, bool Stderr) {
  trace().writeEvent(nlohmann::json{{"ev", "checker_note"}, {"message", Message}});
  if (Stderr)
    std::fprintf(stderr, "graphcheck: %s\n", Message.c_str());
}

struct LoadedLibrary {
  std::string Path;
  std::string BuildId; // Hex; empty when the library has none.
};

// The loaded libc10_cuda.so: its path and GNU build id, read from its
// program headers in memory.
LoadedLibrary loadedC10Cuda() {
  LoadedLibrary Out;
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) {
        auto *Lib = static_cast<LoadedLibrary *>(Data);
        const char *Base = std::strrchr(Info->dlpi_name, '/');
        if (!Info->dlpi_name || std::strcmp(Base ? Base + 1 : Info->dlpi_name, C10Cuda) != 0)
          return 0;
        Lib->Path = Info->dlpi_name;
        for (int I = 0; I < Info->dlpi_phnum; ++I) {
          const ElfW(Phdr) &Ph = Info->dlpi_phdr[I];
          if (Ph.p_type != PT_NOTE)
            continue;
          auto *P = reinterpret_cast<const char *>(Info->dlpi_addr + Ph.p_vaddr);
          for (const char *End = P + Ph.p_memsz; P + sizeof(ElfW(Nhdr)) <= End;) {
            auto *N = reinterpret_cast<const ElfW(Nhdr) *>(P);
            const char *Name = P + sizeof *N;
            const auto *Desc =
                reinterpret_cast<const unsigned char *>(Name + ((N->n_namesz + 3) & ~3u));
            if (N->n_type == NT_GNU_BUILD_ID && N->n_namesz == 4 &&
                std::memcmp(Name, "GNU", 4) == 0)
              for (unsigned J = 0; J < N->n_descsz; ++J) {
                char Hex[3];
                std::snprintf(Hex, sizeof Hex, "%02x", Desc[J]);
                Lib->BuildId += Hex;
              }
            P = reinterpret_cast<const char *>(Desc) + ((N->n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &Out);
  return Out;
}

std::string realPath(const std::string &P) {
  char Buf[PATH_MAX];
  return realpath(P.c_str(), Buf) ? Buf : P;
}

// The tracker sits beside the injection library unless the environment
// names another.
std::string trackerPath() {
  if (const char *Env = std::getenv("GRAPHCHECK_ALLOC_TRACKER"); Env && *Env)
    return Env;
  Dl_info Self;
  if (!dladdr(reinterpret_cast<void *>(&attachAllocatorTrackerOnce), &Self) || !Self.dli_fname)
    return "";
  std::string Dir = Self.dli_fname;
  Dir = Dir.substr(0, Dir.rfind('/') + 1);
  return Dir + "libgraphcheck_alloc.so";
}

void attach() {
  // Only a process that already holds PyTorch's CUDA allocator gets the
  // tracker: loading libtorch into any other program would change it.
  void *C10 = dlopen(C10Cuda, RTLD_LAZY | RTLD_NOLOAD);
  if (!C10)
    return say("no PyTorch CUDA allocator in this process; freed memory is tracked per "
               "cudaMalloc segment",
               true);
  dlclose(C10);
  std::string Path = trackerPath();
  void *Tracker = dlopen(Path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (!Tracker)
    return say("this graphcheck has no allocator tracker (" + std::string(dlerror()) +
                   "); rebuild graphcheck where CMake finds this PyTorch's libtorch "
                   "(CMAKE_PREFIX_PATH=$(python3 -c 'import torch; "
                   "print(torch.utils.cmake_prefix_path)')) to see tensors freed inside "
                   "PyTorch's cached memory",
               true);
  auto BuiltFor =
      reinterpret_cast<GraphcheckTrackerBuiltFor>(dlsym(Tracker, "graphcheck_tracker_built_for"));
  auto Attach =
      reinterpret_cast<GraphcheckTrackerAttach>(dlsym(Tracker, "graphcheck_tracker_attach"));
  auto Live = reinterpret_cast<GraphcheckTrackerLiveBlocks>(
      dlsym(Tracker, "graphcheck_tracker_blocks"));
  LoadedLibrary Loaded = loadedC10Cuda();
  std::string Want = BuiltFor ? BuiltFor() : "";
  std::string WantPath = Want.substr(0, Want.find('\n'));
  std::string WantId = Want.find('\n') == std::string::npos ? "" : Want.substr(Want.find('\n') + 1);
  bool Same = !WantId.empty() && !Loaded.BuildId.empty()
                  ? WantId == Loaded.BuildId
                  : realPath(WantPath) == realPath(Loaded.Path);
  if (!Attach || !Live || !Same)
    return say("the PyTorch in this process (" + Loaded.Path +
                   ") is not the one graphcheck's allocator tracker was built for (" + WantPath +
                   "); freed tensors inside PyTorch's cached memory go unseen. Rebuild graphcheck "
                   "against this PyTorch",
               true);
  char Error[256] = "";
  if (Attach(onBlockEvent, Error, sizeof Error) != 0)
    return say(std::string("the allocator tracker could not attach: ") + Error, true);
  setLiveBlockSource(Live);
  say("allocator tracker attached to " + Loaded.Path, false);
}

} // namespace

void attachAllocatorTrackerOnce() {
  static std::once_flag Once;
  std::call_once(Once, attach);
}

} // namespace graphsafe::inject
