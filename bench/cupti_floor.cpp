// Baselines for what CUPTI itself costs a launch-bound loop, run as CUDA
// injections beside graphcheck (device-bench.sh's inject=LIB mode). Which
// one a build makes is chosen at compile time (FLOOR_MODE), so each has its
// own library name in the bench's table:
//   0 empty:       InitializeInjection returns at once; CUPTI never loaded.
//   1 loaded:      CUPTI loaded and initialised (a version query), no subscriber.
//   2 subscribed:  a subscriber with nothing enabled.
//   3 unsubscribed: subscribed, then unsubscribed at once.
//   4 launch-only: a subscriber with cuGraphLaunch alone enabled, the least a
//                  checker that must see replays needs.
//   5 runtime-one: a subscriber with cudaGraphLaunch alone enabled: what one
//                  callback id of the runtime domain costs every runtime call.
//   6 count:       every runtime and driver call counted by name, printed to
//                  stderr at exit (how many calls of each kind a step makes).
// Build: g++ -shared -fPIC -O2 -DFLOOR_MODE=N cupti_floor.cpp -o LIB.so
//        (modes 1-4 add -I$CUDA/include -L$CUDA/lib64 -lcupti).
#ifndef FLOOR_MODE
#define FLOOR_MODE 2
#endif

#if FLOOR_MODE > 0
#include <cupti.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace {
constexpr int MaxIds = 1024;
std::atomic<unsigned long> Calls[2][MaxIds];

void CUPTIAPI onCall(void *, CUpti_CallbackDomain Domain, CUpti_CallbackId Id, const void *Data) {
#if FLOOR_MODE == 6
  auto *D = static_cast<const CUpti_CallbackData *>(Data);
  if (D->callbackSite == CUPTI_API_ENTER && Id < MaxIds)
    Calls[Domain == CUPTI_CB_DOMAIN_DRIVER_API][Id].fetch_add(1, std::memory_order_relaxed);
#else
  (void)Domain, (void)Id, (void)Data;
#endif
}

#if FLOOR_MODE == 6
void printCounts() {
  for (int Driver = 0; Driver < 2; ++Driver)
    for (int Id = 0; Id < MaxIds; ++Id)
      if (unsigned long N = Calls[Driver][Id].load()) {
        const char *Name = nullptr;
        cuptiGetCallbackName(Driver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API, Id,
                             &Name);
        std::fprintf(stderr, "calls %s %s %lu\n", Driver ? "driver" : "runtime", Name ? Name : "?",
                     N);
      }
}
#endif
} // namespace
#endif

extern "C" int InitializeInjection(void) {
#if FLOOR_MODE == 1
  uint32_t Version = 0;
  cuptiGetVersion(&Version);
#elif FLOOR_MODE >= 2
  CUpti_SubscriberHandle Subscriber;
  if (cuptiSubscribe(&Subscriber, onCall, nullptr) != CUPTI_SUCCESS)
    return 1;
#if FLOOR_MODE == 3
  cuptiUnsubscribe(Subscriber);
#elif FLOOR_MODE == 4
  cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                      CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch);
#elif FLOOR_MODE == 5
  cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                      CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000);
#elif FLOOR_MODE == 6
  cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
  std::atexit(printCounts);
#endif
#endif
  return 1;
}
