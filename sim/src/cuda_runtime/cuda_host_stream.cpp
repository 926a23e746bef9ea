// The CUDA runtime's streams and events (cuda_host_api.h). Every call runs to completion before
// it returns, in program order, so a stream has no pending work and an event is complete when
// recorded: queries return cudaSuccess, waits return at once. An event holds the host time of
// its record (cudaEventElapsedTime: the host time the simulation took, not the GPU's); one made
// with cudaEventDisableTiming has none, as on the GPU. While a stream is captured, a record or
// wait on it is part of the capture (cuda_host_capture.cpp).
#include <chrono>
#include <string>

#include "cuda_runtime/cuda_host_graph.hpp"
#include "cuda_runtime/cuda_host_internal.hpp"

using namespace tgsim::detail::cuda;

namespace {

struct CudaEvent {
  std::chrono::steady_clock::time_point t;
  bool timing = true;
  bool recorded = false;
};
struct CudaStream {
  unsigned flags = 0;
};

CudaEvent* event(cudaEvent_t e) { return reinterpret_cast<CudaEvent*>(e); }

}  // namespace

extern "C" {

cudaError_t cudaStreamCreate(cudaStream_t* s) { return cudaStreamCreateWithFlags(s, cudaStreamDefault); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags) {
  if (!s) return fail(cudaErrorInvalidValue, "cudaStreamCreate: null stream pointer");
  *s = reinterpret_cast<cudaStream_t>(new CudaStream{flags});
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* s, unsigned flags, int) {
  return cudaStreamCreateWithFlags(s, flags);
}
cudaError_t cudaStreamDestroy(cudaStream_t s) {
  if (s != cudaStreamLegacy && s != cudaStreamPerThread) delete reinterpret_cast<CudaStream*>(s);
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return sticky_error(); }
cudaError_t cudaStreamQuery(cudaStream_t) { return sticky_error(); }
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned) {
  if (e && capture_event_wait(s, e)) return cudaSuccess;
  return e ? cudaSuccess : fail(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent: null event");
}

cudaError_t cudaEventCreate(cudaEvent_t* e) { return cudaEventCreateWithFlags(e, cudaEventDefault); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned flags) {
  if (!e) return fail(cudaErrorInvalidValue, "cudaEventCreate: null event pointer");
  auto* ev = new CudaEvent{};
  ev->timing = !(flags & cudaEventDisableTiming);
  *e = reinterpret_cast<cudaEvent_t>(ev);
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete event(e);
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  if (!e) return fail(cudaErrorInvalidResourceHandle, "cudaEventRecord: null event");
  if (capture_event_record(e, s)) return cudaSuccess;
  event(e)->t = std::chrono::steady_clock::now();
  event(e)->recorded = true;
  return cudaSuccess;
}
cudaError_t cudaEventQuery(cudaEvent_t e) {
  return e ? sticky_error() : fail(cudaErrorInvalidResourceHandle, "cudaEventQuery: null event");
}
cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  return e ? sticky_error() : fail(cudaErrorInvalidResourceHandle, "cudaEventSynchronize: null event");
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
  if (!a || !b) return fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: null event");
  if (!event(a)->timing || !event(b)->timing)
    return fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: an event made with cudaEventDisableTiming");
  if (!event(a)->recorded || !event(b)->recorded)
    return fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: an event that was never recorded");
  *ms = std::chrono::duration<float, std::milli>(event(b)->t - event(a)->t).count();
  return cudaSuccess;
}

}  // extern "C"
