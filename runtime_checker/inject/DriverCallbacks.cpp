// Driver API callbacks, for programs (and libraries: PyTorch's expandable
// segments, Triton, custom extensions) that call the driver directly. Calls the
// runtime makes on the program's behalf are skipped by the dispatcher.
#include "Callbacks.h"
#include "KernelParams.h"
#include "Recorder.h"

#include <cuda.h>

namespace graphsafe::inject {

namespace {

CUresult result(const CUpti_CallbackData *D) { return returnCode(D, CUDA_SUCCESS); }

const CUpti_CallbackId Watched[] = {
    CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemMap,
    CUPTI_DRIVER_TRACE_CBID_cuMemUnmap,
    CUPTI_DRIVER_TRACE_CBID_cuMemAddressFree,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture,
    CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2,
    CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize,
    CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize,
    CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2,
    // What orders replays on different streams.
    CUPTI_DRIVER_TRACE_CBID_cuEventRecord,
    CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags,
    CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz,
};

const CUpti_CallbackId Launches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

// A synchronizing call returned: the host has seen the work it waited for.
void recordHostSync(CUpti_CallbackId Cbid, const CUpti_CallbackData *D) {
  switch (Cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz:
    return recordHostSyncStream(u64(params<cuStreamSynchronize_params>(D)->hStream),
                                Cbid == CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz);
  case CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize:
    return recordHostSyncEvent(u64(params<cuEventSynchronize_params>(D)->hEvent));
  case CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize:
    return recordHostSyncDevice();
  default:
    return; // Synchronous copies order against the legacy stream only.
  }
}

void onLaunch(CUfunction F, void **Params, bool Enter) {
  if (Enter) {
    countLaunch(true);
    if (eagerLaunchMatters())
      recordEagerLaunchEnter(functionForLaunch(F), Params);
  } else
    recordEagerLaunchExit();
}

} // namespace

const CUpti_CallbackId *watchedDriverCalls(size_t &Count) {
  Count = sizeof Watched / sizeof Watched[0];
  return Watched;
}

const CUpti_CallbackId *eagerLaunchCalls(size_t &Count) {
  Count = sizeof Launches / sizeof Launches[0];
  return Launches;
}

void onDriverApi(CUpti_CallbackId Cbid, const CUpti_CallbackData *D) {
  const bool Enter = D->callbackSite == CUPTI_API_ENTER;
  const bool Ok = !Enter && result(D) == CUDA_SUCCESS;
  switch (Cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged:
    if (Ok) // Both start {CUdeviceptr *dptr; size_t bytesize;}.
      recordAlloc(*params<cuMemAlloc_v2_params>(D)->dptr,
                  params<cuMemAlloc_v2_params>(D)->bytesize);
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2:
    if (Ok) {
      auto *P = params<cuMemAllocPitch_v2_params>(D);
      recordAlloc(*P->dptr, *P->pPitch * P->Height);
    }
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync:
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync:
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz:
    if (Ok) // All start {CUdeviceptr *dptr; size_t bytesize;}.
      recordAlloc(*params<cuMemAllocAsync_params>(D)->dptr,
                  params<cuMemAllocAsync_params>(D)->bytesize);
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2:
    if (Enter)
      recordFree(params<cuMemFree_v2_params>(D)->dptr);
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync:
  case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz:
    if (Enter)
      recordStreamOrderedFree(params<cuMemFreeAsync_params>(D)->dptr);
    return;
  // Virtual memory (PyTorch's expandable segments): a mapped range is an
  // allocation until it is unmapped.
  case CUPTI_DRIVER_TRACE_CBID_cuMemMap:
    if (Ok)
      recordAlloc(params<cuMemMap_params>(D)->ptr, params<cuMemMap_params>(D)->size);
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuMemUnmap:
    if (Enter)
      recordUnmap(params<cuMemUnmap_params>(D)->ptr, params<cuMemUnmap_params>(D)->size);
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuMemAddressFree:
    if (Enter)
      recordUnmap(params<cuMemAddressFree_params>(D)->ptr,
                  params<cuMemAddressFree_params>(D)->size);
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz:
    if (Ok) // All start {CUstream hStream; ...}.
      recordCaptureBegin(u64(params<cuStreamBeginCapture_params>(D)->hStream));
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz:
    if (!Enter) {
      auto *P = params<cuStreamEndCapture_params>(D);
      CUresult Err = result(D);
      recordCaptureEnd(u64(P->hStream), Err == CUDA_SUCCESS && P->phGraph ? *P->phGraph : nullptr,
                       D->functionName, Err == CUDA_ERROR_STREAM_CAPTURE_UNJOINED);
    }
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
  case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz: {
    auto *P = params<cuGraphLaunch_params>(D);
    bool PerThread = Cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
    if (Enter)
      recordGraphLaunchEnter(P->hGraph, u64(P->hStream), PerThread);
    else
      recordGraphLaunchExit(P->hGraph);
    return;
  }
  // Event records and waits: the same fields in each variant.
  case CUPTI_DRIVER_TRACE_CBID_cuEventRecord:
  case CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags:
  case CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz:
    if (Ok) {
      auto *P = params<cuEventRecord_params>(D);
      recordEventRecord(u64(P->hEvent), u64(P->hStream),
                        Cbid == CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz ||
                            Cbid == CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz);
    }
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz:
    if (Ok) {
      auto *P = params<cuStreamWaitEvent_params>(D);
      recordStreamWait(u64(P->hStream), u64(P->hEvent),
                       Cbid == CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz);
    }
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2:
    if (Ok)
      recordExecUpdate(params<cuGraphExecUpdate_v2_params>(D)->hGraphExec,
                       params<cuGraphExecUpdate_v2_params>(D)->hGraph);
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy:
    if (Enter)
      recordExecDestroy(params<cuGraphExecDestroy_params>(D)->hGraphExec);
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2:
    if (Ok) {
      auto *P = params<cuGraphExecKernelNodeSetParams_v2_params>(D);
      recordKernelNodeUpdate(P->hGraphExec, P->hNode, *P->nodeParams);
    }
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    return onLaunch(params<cuLaunchKernel_params>(D)->f,
                    params<cuLaunchKernel_params>(D)->kernelParams, Enter);
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    return onLaunch(params<cuLaunchKernelEx_params>(D)->f,
                    params<cuLaunchKernelEx_params>(D)->kernelParams, Enter);
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    return onLaunch(params<cuLaunchCooperativeKernel_params>(D)->f,
                    params<cuLaunchCooperativeKernel_params>(D)->kernelParams, Enter);
  default:
    break;
  }
  // The rest are synchronizing calls, illegal on a capturing thread.
  if (Enter)
    recordSyncIfCapturing(D->functionName);
  else if (int Err = result(D); Err >= CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED &&
                                Err <= CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD)
    recordCaptureError(D->functionName, Err);
  else if (Ok)
    recordHostSync(Cbid, D);
}

} // namespace graphsafe::inject
