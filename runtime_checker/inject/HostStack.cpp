#include "HostStack.h"

#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <string>

namespace graphsafe::inject {

namespace {

bool endsWith(const char *S, const char *Suffix) {
  size_t N = std::strlen(S), M = std::strlen(Suffix);
  return N >= M && std::strcmp(S + N - M, Suffix) == 0;
}

} // namespace

bool pythonRunning() {
  static auto IsInit = pythonSymbol<int (*)()>("Py_IsInitialized");
  return IsInit && IsInit();
}

namespace {

// 1 when this thread holds the GIL, 0 when not, -1 without Python.
int gilHeld() {
  static auto Check = pythonSymbol<int (*)()>("PyGILState_Check");
  return pythonRunning() && Check ? Check() : -1;
}

} // namespace

nlohmann::json pythonFramesFrom(void *Frame, bool FrameOwned) {
  static auto Line = pythonSymbol<int (*)(void *)>("PyFrame_GetLineNumber");
  static auto Code = pythonSymbol<void *(*)(void *)>("PyFrame_GetCode");
  static auto Back = pythonSymbol<void *(*)(void *)>("PyFrame_GetBack");
  static auto Attr = pythonSymbol<void *(*)(void *, const char *)>("PyObject_GetAttrString");
  static auto Utf8 = pythonSymbol<const char *(*)(void *)>("PyUnicode_AsUTF8");
  static auto DecRef = pythonSymbol<void (*)(void *)>("Py_DecRef");
  nlohmann::json Out = nlohmann::json::array();
  if (!Line || !Code || !Back || !Attr || !Utf8 || !DecRef)
    return Out;
  bool Owned = FrameOwned;
  for (int Depth = 0; Frame && Depth < 16; ++Depth) {
    void *C = Code(Frame);
    void *File = C ? Attr(C, "co_filename") : nullptr;
    void *Name = C ? Attr(C, "co_name") : nullptr;
    const char *F = File ? Utf8(File) : nullptr;
    const char *N = Name ? Utf8(Name) : nullptr;
    // Frames inside torch, or graphcheck's own Python shim, say little about
    // the user's mistake.
    if (F && !std::strstr(F, "/torch/") && !endsWith(F, "/sitecustomize.py"))
      Out.push_back(std::string(F) + ":" + std::to_string(Line(Frame)) + " " + (N ? N : "?"));
    for (void *Ref : {File, Name, C})
      if (Ref)
        DecRef(Ref);
    void *Next = Back(Frame);
    if (Owned)
      DecRef(Frame);
    Frame = Next;
    Owned = true;
  }
  if (Owned && Frame)
    DecRef(Frame);
  return Out;
}

nlohmann::json pythonStack() {
  static auto Ensure = pythonSymbol<int (*)()>("PyGILState_Ensure");
  static auto Release = pythonSymbol<void (*)(int)>("PyGILState_Release");
  static auto GetFrame = pythonSymbol<void *(*)()>("PyEval_GetFrame");
  if (!Ensure || !Release || !GetFrame || !pythonRunning())
    return nlohmann::json::array();
  int State = Ensure();
  nlohmann::json Out = pythonFramesFrom(GetFrame(), /*FrameOwned=*/false); // Borrowed.
  Release(State);
  return Out;
}

nlohmann::json pythonStackIfHeld() {
  // Ensure/Release on a held GIL only nest.
  return gilHeld() == 1 ? pythonStack() : nlohmann::json::array();
}

const char *gilState() {
  static auto Mine = pythonSymbol<void *(*)()>("PyGILState_GetThisThreadState");
  switch (gilHeld()) {
  case 1:
    return "held";
  case 0:
    return Mine && Mine() ? "released" : "none";
  default:
    return "none";
  }
}

namespace {

// Frames in these libraries are the CUDA stack or graphcheck itself.
bool isInfrastructure(const char *Module) {
  static Dl_info Self;
  static bool HaveSelf = dladdr(reinterpret_cast<void *>(&nativeStack), &Self) != 0;
  if (HaveSelf && Self.dli_fname && std::strcmp(Module, Self.dli_fname) == 0)
    return true;
  for (const char *Lib :
       {"libcupti", "libcuda.so", "libcudart", "libc.so", "libstdc++", "libgraphcheck"})
    if (std::strstr(Module, Lib))
      return true;
  return false;
}

std::string demangle(const char *Name) {
  if (!Name)
    return "?";
  int Status = 0;
  char *D = abi::__cxa_demangle(Name, nullptr, nullptr, &Status);
  std::string Out = Status == 0 && D ? D : Name;
  std::free(D);
  return Out;
}

} // namespace

nlohmann::json nativeStack() {
  // A free reached from user code through libtorch (a tensor destructor, the
  // allocator, its trace tracker) is a few dozen frames deep.
  void *Frames[64];
  int N = backtrace(Frames, 64);
  nlohmann::json Out = nlohmann::json::array();
  for (int I = 0; I < N && Out.size() < 24; ++I) {
    Dl_info Info;
    if (!dladdr(Frames[I], &Info) || !Info.dli_fname || isInfrastructure(Info.dli_fname))
      continue;
    // Return addresses point after the call; one byte back is inside it.
    // addr2line wants module offsets for shared objects and PIE, but
    // absolute addresses for fixed-address executables.
    auto Addr = reinterpret_cast<uintptr_t>(Frames[I]) - 1;
    bool Fixed = static_cast<const Elf64_Ehdr *>(Info.dli_fbase)->e_type == ET_EXEC;
    auto Offset = Fixed ? Addr : Addr - reinterpret_cast<uintptr_t>(Info.dli_fbase);
    char Hex[32];
    std::snprintf(Hex, sizeof Hex, "+0x%lx ", static_cast<unsigned long>(Offset));
    Out.push_back("native:" + std::string(Info.dli_fname) + Hex + demangle(Info.dli_sname));
  }
  return Out;
}

nlohmann::json nativeStackUnlessPython() {
  return pythonRunning() ? nlohmann::json::array() : nativeStack();
}

nlohmann::json callerStack() {
  nlohmann::json Py = pythonStack();
  return Py.empty() ? nativeStack() : Py;
}

} // namespace graphsafe::inject
