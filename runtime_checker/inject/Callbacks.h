// CUPTI callback handlers, one per API domain. Each decodes the call's
// parameters and hands the facts to the Recorder.
#pragma once

#include <cupti.h>

#include <cstdint>

namespace graphsafe::inject {

void onRuntimeApi(CUpti_CallbackId Cbid, const CUpti_CallbackData *D);
void onDriverApi(CUpti_CallbackId Cbid, const CUpti_CallbackData *D);

// The driver calls graphcheck handles, to be enabled one by one (enabling the
// whole driver domain would put a callback on every driver call).
const CUpti_CallbackId *watchedDriverCalls(size_t &Count);

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
