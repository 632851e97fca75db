// CUPTI callback handlers, one per API domain. Each decodes the call's
// parameters and hands the facts to the Recorder.
#pragma once

#include <cupti.h>

#include <cstdint>

namespace graphsafe::inject {

void onRuntimeApi(CUpti_CallbackId Cbid, const CUpti_CallbackData *D);
void onDriverApi(CUpti_CallbackId Cbid, const CUpti_CallbackData *D);

// The calls graphcheck needs outside a capture, to be enabled one by one:
// enabling a whole domain puts a callback on every call (PyTorch makes
// several runtime calls per eager op), which costs more than the checking.
const CUpti_CallbackId *watchedDriverCalls(size_t &Count);
const CUpti_CallbackId *watchedRuntimeCalls(size_t &Count);

// While a capture is under way every runtime call is watched, since any of
// them may be illegal there (sync-during-capture, with its host stack);
// outside one, only the watched calls above.
void widenCallbacks(bool Wide);

// The driver's kernel launch calls, which light mode watches only at times
// (EagerWatch.h).
const CUpti_CallbackId *eagerLaunchCalls(size_t &Count);
void watchEagerLaunches(bool On);

// The call's parameter struct (CUPTI's generated *_params types).
template <typename T> const T *params(const CUpti_CallbackData *D) {
  return static_cast<const T *>(D->functionParams);
}

// The call's return code (cudaError_t or CUresult); Success before the call returns.
template <typename Code> Code returnCode(const CUpti_CallbackData *D, Code Success) {
  return D->functionReturnValue ? *static_cast<Code *>(D->functionReturnValue) : Success;
}

inline uint64_t u64(const void *P) { return reinterpret_cast<uint64_t>(P); }

} // namespace graphsafe::inject
