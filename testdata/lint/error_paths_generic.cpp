// A generic status checker, shaped as ONNX Runtime's CudaCall: it compares the
// status with the success value its caller passes (`ret != successCode`), and
// its failure branch throws or hands back an error status, from inside a try.
// That branch runs only once the capture has failed; a checker whose failure
// branch logs and carries on is still host work inside the capture.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <type_traits>

struct Status {
  int Code = 0;
  std::string Message;
  static Status ok() { return {}; }
};

template <class E> const char *errorString(E Err);
template <> const char *errorString<cudaError_t>(cudaError_t Err) {
  cudaDeviceSynchronize(); // Flushes the failing kernel's error: failure path only.
  return cudaGetErrorString(Err);
}

template <class E, bool Throw>
std::conditional_t<Throw, void, Status> checkedCall(E Ret, E SuccessCode, const char *Expr) {
  if (Ret != SuccessCode) {
    try {
      char Msg[256];
      std::snprintf(Msg, sizeof Msg, "%s failed: %s", Expr, errorString(Ret));
      if constexpr (Throw) {
        throw std::runtime_error(Msg);
      } else {
        std::fprintf(stderr, "%s\n", Msg);
        return Status{1, Msg};
      }
    } catch (const std::exception &Ex) {
      if constexpr (Throw) {
        throw;
      } else {
        return Status{1, Ex.what()};
      }
    }
  }
  if constexpr (!Throw)
    return Status::ok();
}

// A library status class with its own comparison, checked the same way.
struct FrontendError {
  int Code = 0;
  bool operator!=(const FrontendError &O) const { return Code != O.Code; }
};
template <> const char *errorString<FrontendError>(FrontendError Err) {
  cudaDeviceSynchronize(); // Failure path only.
  return "frontend error";
}
FrontendError buildPlan(cudaStream_t S);

#define CALL_THROW(expr) checkedCall<cudaError_t, true>((expr), cudaSuccess, #expr)
#define CALL(expr) checkedCall<cudaError_t, false>((expr), cudaSuccess, #expr)

template <class E> void warnOnFailure(E Ret, E SuccessCode) {
  if (Ret != SuccessCode) {
    cudaDeviceSynchronize();                 // expected-error {{sync-device-synchronize}}
    std::printf("call failed: %d\n", int(Ret)); // expected-warning {{host-io-in-capture}}
  }
}

// A C API returns a status object on failure and null on success: the branch
// that gets one logs it and returns. One that carries on past it is not a
// failure path.
struct ApiStatus;
ApiStatus *apiSetStream(cudaStream_t S);
const char *apiMessage(ApiStatus *St);
#define LOG_ERROR(msg) std::fprintf(stderr, "API error: %s\n", (msg))
#define LOG_AND_RETURN_IF_API_ERROR(fn)                                                          \
  do {                                                                                           \
    ApiStatus *_status = (fn);                                                                   \
    if (_status != nullptr) {                                                                    \
      LOG_ERROR(apiMessage(_status));                                                            \
      return;                                                                                    \
    }                                                                                            \
  } while (0)
void activate(cudaStream_t S) { LOG_AND_RETURN_IF_API_ERROR(apiSetStream(S)); }
void activateOrWarn(cudaStream_t S) {
  if (ApiStatus *St = apiSetStream(S))
    std::fprintf(stderr, "API error: %s\n", apiMessage(St)); // expected-warning {{host-io-in-capture}}
}

// TensorRT's samples: the stream a failure is written to is the outer macro's
// argument (std::cerr), spelled outside the failure branch that writes to it.
#define CHECK_WITH_STREAM(status, stream)                                                        \
  do {                                                                                           \
    if ((status) != cudaSuccess) {                                                               \
      stream << "Cuda failure: " << cudaGetErrorString(status) << std::endl;                     \
      exit(EXIT_FAILURE);                                                                        \
    }                                                                                            \
  } while (0)
#define CHECK(status) CHECK_WITH_STREAM(status, std::cerr)
void clear(float *D, cudaStream_t S) { CHECK(cudaMemsetAsync(D, 0, 128, S)); }
void clearLoudly(float *D, cudaStream_t S) {
  cudaError_t Err = cudaMemsetAsync(D, 0, 128, S);
  std::cerr << "cleared: " << cudaGetErrorString(Err) << std::endl; // expected-warning {{host-io-in-capture}}
}

void capture(float *D, cudaStream_t S) {
  cudaGraph_t G;
  CALL_THROW(cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal));
  Status St = CALL(cudaMemsetAsync(D, 0, 128, S));
  checkedCall<FrontendError, true>(buildPlan(S), FrontendError{}, "buildPlan");
  warnOnFailure(cudaMemsetAsync(D, 0, 128, S), cudaSuccess);
  activate(S);
  activateOrWarn(S);
  clear(D, S);
  clearLoudly(D, S);
  CALL_THROW(cudaStreamEndCapture(S, &G));
}
