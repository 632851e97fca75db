// Runtime API (cudart) callbacks. A program's runtime calls reach the driver
// through private entry points, so these are the only view of them.
#include "Callbacks.h"
#include "KernelParams.h"
#include "Recorder.h"

#include <cuda_runtime_api.h>

namespace graphsafe::inject {

namespace {

const CUpti_CallbackId Watched[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, CUPTI_RUNTIME_TRACE_CBID_cudaMallocManaged_v6000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_ptsz_v11020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMallocFromPoolAsync_v11020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMallocFromPoolAsync_ptsz_v11020,
    CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020, CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020,
    CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_ptsz_v11020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecUpdate_v10020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecKernelNodeSetParams_v10010,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecDestroy_v10000,
    // What orders replays on different streams.
    CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020,
    // Kernel launches are not here: outside a capture they are seen once, at
    // the driver (cuLaunchKernel*, which the runtime's launches go through),
    // so an eager launch costs one callback pair instead of two.
};

cudaError_t result(const CUpti_CallbackData *D) { return returnCode(D, cudaSuccess); }

// Synchronizing calls are illegal on the thread that is capturing, whatever
// they return (some only invalidate the capture, and the error surfaces later
// at cudaStreamEndCapture, far from the line that caused it).
bool isSyncCall(CUpti_CallbackId Cbid) {
  switch (Cbid) {
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020:
    return true;
  default:
    return false;
  }
}

// These return the sticky error of an earlier call; the earlier call is the culprit.
bool reportsEarlierErrors(CUpti_CallbackId Cbid) {
  switch (Cbid) {
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v10010:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_v11030:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphDestroy_v10000:
    return true;
  default:
    return false;
  }
}

// A synchronizing call returned: the host has seen the work it waited for.
void recordHostSync(CUpti_CallbackId Cbid, const CUpti_CallbackData *D) {
  switch (Cbid) {
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000:
    return recordHostSyncStream(u64(params<cudaStreamSynchronize_v3020_params>(D)->stream),
                                Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000);
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020:
    return recordHostSyncEvent(u64(params<cudaEventSynchronize_v3020_params>(D)->event));
  case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020:
    return recordHostSyncDevice();
  default:
    return; // Synchronous copies and queries order against the legacy stream only.
  }
}

bool isCaptureError(int Err) {
  return Err >= cudaErrorStreamCaptureUnsupported && Err <= cudaErrorStreamCaptureWrongThread &&
         Err != cudaErrorCapturedEvent;
}

void onLaunch(const void *Stub, const char *Symbol, void **Args, bool Enter) {
  if (!Enter)
    return recordEagerLaunchExit();
  countLaunch();
  // Resolving the stub is only worth it where a kernel could touch graph memory.
  if (!eagerLaunchMatters())
    return;
  if (CUfunction F = functionOfStub(Stub, Symbol))
    recordEagerLaunchEnter(F, Args);
  else if (const std::vector<size_t> *Sizes = paramSizesByName(Symbol))
    recordEagerLaunchEnter(Symbol, *Sizes, Stub, Args);
}

} // namespace

const CUpti_CallbackId *watchedRuntimeCalls(size_t &Count) {
  Count = sizeof Watched / sizeof Watched[0];
  return Watched;
}

void onRuntimeApi(CUpti_CallbackId Cbid, const CUpti_CallbackData *D) {
  const bool Enter = D->callbackSite == CUPTI_API_ENTER;
  switch (Cbid) {
  case CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMallocManaged_v6000:
    if (!Enter && result(D) == cudaSuccess) {
      auto *P = params<cudaMalloc_v3020_params>(D); // Both start {void **devPtr; size_t size;}.
      recordAlloc(u64(*P->devPtr), P->size);
    }
    return;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_ptsz_v11020:
    if (!Enter && result(D) == cudaSuccess) {
      auto *P = params<cudaMallocAsync_v11020_params>(D);
      recordAlloc(u64(*P->devPtr), P->size);
    }
    return;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMallocFromPoolAsync_v11020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMallocFromPoolAsync_ptsz_v11020:
    if (!Enter && result(D) == cudaSuccess) {
      auto *P = params<cudaMallocFromPoolAsync_v11020_params>(D);
      recordAlloc(u64(*P->ptr), P->size);
    }
    return;
  case CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020:
    if (Enter)
      recordFree(u64(params<cudaFree_v3020_params>(D)->devPtr));
    return;
  case CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_ptsz_v11020:
    if (Enter)
      recordStreamOrderedFree(u64(params<cudaFreeAsync_v11020_params>(D)->devPtr));
    return;
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000:
    if (!Enter && result(D) == cudaSuccess)
      recordCaptureBegin(u64(params<cudaStreamBeginCapture_v10000_params>(D)->stream));
    return;
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030:
    if (!Enter && result(D) == cudaSuccess)
      recordCaptureBegin(u64(params<cudaStreamBeginCaptureToGraph_v12030_params>(D)->stream));
    return;
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000:
    if (!Enter) {
      auto *P = params<cudaStreamEndCapture_v10000_params>(D);
      cudaError_t Err = result(D);
      recordCaptureEnd(u64(P->stream),
                       Err == cudaSuccess && P->pGraph ? reinterpret_cast<CUgraph>(*P->pGraph)
                                                       : nullptr,
                       D->functionName, Err == cudaErrorStreamCaptureUnjoined);
    }
    return;
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000: {
    auto *P = params<cudaGraphLaunch_v10000_params>(D);
    auto Exec = reinterpret_cast<CUgraphExec>(P->graphExec);
    bool PerThread = Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000;
    if (Enter)
      recordGraphLaunchEnter(Exec, u64(P->stream), PerThread);
    else
      recordGraphLaunchExit(Exec);
    return;
  }
  // Event records and waits: the same leading fields in each variant.
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010:
    if (!Enter && result(D) == cudaSuccess) {
      auto *P = params<cudaEventRecord_v3020_params>(D);
      recordEventRecord(u64(P->event), u64(P->stream),
                        Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000 ||
                            Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010);
    }
    return;
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000:
    if (!Enter && result(D) == cudaSuccess) {
      auto *P = params<cudaStreamWaitEvent_v3020_params>(D);
      recordStreamWait(u64(P->stream), u64(P->event),
                       Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000);
    }
    return;
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecUpdate_v10020:
    if (!Enter && result(D) == cudaSuccess) {
      auto *P = params<cudaGraphExecUpdate_v10020_params>(D);
      recordExecUpdate(reinterpret_cast<CUgraphExec>(P->hGraphExec),
                       reinterpret_cast<CUgraph>(P->hGraph));
    }
    return;
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecDestroy_v10000:
    if (Enter)
      recordExecDestroy(
          reinterpret_cast<CUgraphExec>(params<cudaGraphExecDestroy_v10000_params>(D)->graphExec));
    return;
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecKernelNodeSetParams_v10010:
    if (!Enter && result(D) == cudaSuccess) {
      auto *P = params<cudaGraphExecKernelNodeSetParams_v10010_params>(D);
      CUDA_KERNEL_NODE_PARAMS K{};
      K.func = functionOfStub(P->pNodeParams->func, D->symbolName);
      K.kernelParams = P->pNodeParams->kernelParams;
      K.extra = P->pNodeParams->extra;
      recordKernelNodeUpdate(reinterpret_cast<CUgraphExec>(P->hGraphExec),
                             reinterpret_cast<CUgraphNode>(P->node), K);
    }
    return;
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000: {
    auto *P = params<cudaLaunchKernel_v7000_params>(D);
    return onLaunch(P->func, D->symbolName, P->args, Enter);
  }
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000: {
    auto *P = params<cudaLaunchCooperativeKernel_v9000_params>(D);
    return onLaunch(P->func, D->symbolName, P->args, Enter);
  }
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
    auto *P = params<cudaLaunchKernelExC_v11060_params>(D);
    return onLaunch(P->func, D->symbolName, P->args, Enter);
  }
  default:
    break;
  }
  if (Enter && isSyncCall(Cbid)) {
    recordSyncIfCapturing(D->functionName);
    return;
  }
  if (!Enter && isSyncCall(Cbid) && result(D) == cudaSuccess)
    return recordHostSync(Cbid, D);
  if (!Enter && !reportsEarlierErrors(Cbid) && isCaptureError(result(D)))
    recordCaptureError(D->functionName, result(D));
}

} // namespace graphsafe::inject
