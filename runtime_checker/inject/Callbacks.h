// CUPTI callback handlers, one per API domain. Each decodes the call's
// parameters and hands the facts to the Recorder.
#pragma once

#include <cupti.h>

namespace graphsafe::inject {

void onRuntimeApi(CUpti_CallbackId Cbid, const CUpti_CallbackData *D);
void onDriverApi(CUpti_CallbackId Cbid, const CUpti_CallbackData *D);

// The driver calls graphcheck handles, to be enabled one by one (enabling the
// whole driver domain would put a callback on every driver call).
const CUpti_CallbackId *watchedDriverCalls(size_t &Count);

} // namespace graphsafe::inject
