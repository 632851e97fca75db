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
// Build: g++ -shared -fPIC -O2 -DFLOOR_MODE=N cupti_floor.cpp -o LIB.so
//        (modes 1-4 add -I$CUDA/include -L$CUDA/lib64 -lcupti).
#ifndef FLOOR_MODE
#define FLOOR_MODE 2
#endif

#if FLOOR_MODE > 0
#include <cupti.h>

namespace {
void CUPTIAPI onCall(void *, CUpti_CallbackDomain, CUpti_CallbackId, const void *) {}
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
  cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch);
#endif
#endif
  return 1;
}
