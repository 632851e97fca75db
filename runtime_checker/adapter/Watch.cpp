#include "graphsafe/watch.h"

#include "Hex.h"

#include <nlohmann/json.hpp>

#include <c10/util/intrusive_ptr.h>

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <vector>

namespace graphsafe {

namespace {

struct Injection {
  void (*Event)(const char *) = nullptr;
  void (*SetLaunchHook)(void (*)()) = nullptr;
  int (*YieldCupti)(const char *) = nullptr;
};

// The injection library CUDA loaded for `graphcheck run`, if any. Not
// loaded here: without graphcheck every call stays a no-op.
const Injection &injection() {
  static Injection I = [] {
    Injection Out;
    const char *Path = std::getenv("CUDA_INJECTION64_PATH");
    void *H = Path ? dlopen(Path, RTLD_NOW | RTLD_NOLOAD) : nullptr;
    if (!H)
      H = Path ? dlopen(Path, RTLD_NOW) : nullptr;
    if (!H)
      return Out;
    Out.Event = reinterpret_cast<void (*)(const char *)>(dlsym(H, "graphcheck_event"));
    Out.SetLaunchHook =
        reinterpret_cast<void (*)(void (*)())>(dlsym(H, "graphcheck_set_launch_hook"));
    Out.YieldCupti = reinterpret_cast<int (*)(const char *)>(dlsym(H, "graphcheck_yield_cupti"));
    return Out;
  }();
  return I;
}

void emit(const nlohmann::json &J) {
  if (auto *E = injection().Event)
    E(J.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
}

std::string hex(const void *P) { return rt::hexAddress(reinterpret_cast<uintptr_t>(P)); }

struct Watched {
  std::string Name;
  torch::Tensor Param;
  const void *LastGrad = nullptr;
  size_t LastBytes = 0;
};

struct HandedOut {
  std::string Id;
  c10::weak_intrusive_ptr<c10::TensorImpl, c10::UndefinedTensorImpl> Tensor;
};

std::mutex M;
std::vector<Watched> Params;
std::vector<HandedOut> Outputs;
unsigned NextOutput = 0;

// Runs before every graph launch and capture end: reports grads that changed
// storage since the last poll, and handed-out tensors that died.
void beforeLaunch() {
  std::lock_guard<std::mutex> L(M);
  for (Watched &W : Params) {
    const torch::Tensor &G = W.Param.grad();
    const void *Now = G.defined() && G.is_cuda() ? G.data_ptr() : nullptr;
    if (Now == W.LastGrad)
      continue;
    if (Now)
      emit({{"ev", "grad_installed"},
            {"param", W.Name},
            {"addr", hex(Now)},
            {"size", G.numel() * G.element_size()}});
    else // The storage it let go of, so a graph still writing there names the grad.
      emit({{"ev", "grad_released"},
            {"param", W.Name},
            {"addr", hex(W.LastGrad)},
            {"size", W.LastBytes}});
    W.LastGrad = Now;
    W.LastBytes = Now ? G.numel() * G.element_size() : 0;
  }
  for (auto It = Outputs.begin(); It != Outputs.end();) {
    if (It->Tensor.expired()) {
      emit({{"ev", "tensor_dead"}, {"tensor", It->Id}});
      It = Outputs.erase(It);
    } else {
      ++It;
    }
  }
}

void installHook() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    if (auto *Set = injection().SetLaunchHook)
      Set(&beforeLaunch);
  });
}

} // namespace

bool active() { return injection().Event != nullptr; }

void watch(const std::string &Name, const torch::Tensor &Param) {
  if (!active() || !Param.requires_grad())
    return;
  installHook();
  std::lock_guard<std::mutex> L(M);
  Params.push_back({Name, Param, nullptr});
}

void watch(const torch::nn::Module &M, const std::string &Prefix) {
  for (const auto &P : M.named_parameters())
    watch(Prefix + P.key(), P.value());
}

const torch::Tensor &handedOut(const torch::Tensor &T, const std::string &Name) {
  if (!active() || !T.defined() || !T.is_cuda())
    return T;
  installHook();
  std::lock_guard<std::mutex> L(M);
  std::string Id = Name + "#" + std::to_string(NextOutput++);
  Outputs.push_back({Id, c10::weak_intrusive_ptr<c10::TensorImpl, c10::UndefinedTensorImpl>(
                             T.getIntrusivePtr())});
  emit({{"ev", "tensor_out"},
        {"tensor", Id},
        {"addr", hex(T.data_ptr())},
        {"size", T.numel() * T.element_size()}});
  return T;
}

void yieldToProfiler(const std::string &Where) {
  const char *Choice = std::getenv("GRAPHCHECK_PROFILER");
  if (Choice && std::string(Choice) == "keep")
    return;
  if (auto *Yield = injection().YieldCupti)
    Yield(Where.c_str());
}

} // namespace graphsafe
