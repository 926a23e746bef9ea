// Stream capture (cuda_graph.h): between cudaStreamBeginCapture and cudaStreamEndCapture a
// stream's operations become nodes of a graph instead of running. Each captured stream holds
// its current dependencies (the nodes its next operation follows); an event recorded on a
// captured stream carries them, so a stream that waits on it joins the capture (a fork), and a
// captured stream that waits on it adds them (a join), as CUDA builds multi-stream graphs.
#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <string>

#include "cuda_runtime/cuda_host_graph.hpp"
#include "cuda_runtime/cuda_host_internal.hpp"

using namespace tgsim::detail::cuda;

namespace tgsim::detail::cuda {
struct Capture {
  Graph* graph = nullptr;
  bool owned = false;  // made by cudaStreamBeginCapture: cudaStreamEndCapture hands it out
  cudaStream_t origin = nullptr;
  unsigned long long id = 0;
};
}  // namespace tgsim::detail::cuda

namespace {

struct Captured {  // a stream or an event in a capture, with its dependencies
  std::shared_ptr<Capture> capture;
  std::vector<Node*> deps;
};
struct Captures {
  std::mutex mu;
  std::map<cudaStream_t, Captured> streams;
  std::map<cudaEvent_t, Captured> events;
};
Captures& captures() {
  static Captures c;
  return c;
}
thread_local cudaStreamCaptureMode thread_mode = cudaStreamCaptureModeGlobal;

void add_unique(std::vector<Node*>& to, const std::vector<Node*>& from) {
  for (Node* n : from)
    if (std::find(to.begin(), to.end(), n) == to.end()) to.push_back(n);
}

cudaError_t begin(cudaStream_t s, Graph* graph, bool owned, const cudaGraphNode_t* deps, size_t ndeps,
                  const char* call) {
  static std::atomic<unsigned long long> ids{0};
  if (!s || s == cudaStreamLegacy)
    return fail(cudaErrorStreamCaptureUnsupported,
                std::string(call) + ": the legacy default stream cannot be captured; capture a created stream");
  Captures& c = captures();
  std::lock_guard lock(c.mu);
  if (c.streams.count(s)) return fail(cudaErrorIllegalState, std::string(call) + ": the stream is already captured");
  Captured& st = c.streams[s];
  st.capture = std::make_shared<Capture>(Capture{graph, owned, s, ++ids});
  for (size_t i = 0; i < ndeps; ++i) st.deps.push_back(node_of(deps[i]));
  return cudaSuccess;
}

}  // namespace

namespace tgsim::detail::cuda {

Capture* capturing(cudaStream_t s) {
  if (!s) return nullptr;
  Captures& c = captures();
  std::lock_guard lock(c.mu);
  auto it = c.streams.find(s);
  return it == c.streams.end() ? nullptr : it->second.capture.get();
}

cudaError_t capture(cudaStream_t s, std::unique_ptr<Node> node) {
  Captures& c = captures();
  std::lock_guard lock(c.mu);
  auto it = c.streams.find(s);
  if (it == c.streams.end()) return fail(cudaErrorStreamCaptureInvalidated, "stream capture: the stream is not captured");
  Captured& st = it->second;
  std::vector<cudaGraphNode_t> deps;
  for (Node* d : st.deps) deps.push_back(handle_of(d));
  Node* added = add_node(*st.capture->graph, std::move(node), deps.data(), deps.size());
  st.deps = {added};
  return cudaSuccess;
}

bool capture_event_record(cudaEvent_t e, cudaStream_t s) {
  Captures& c = captures();
  std::lock_guard lock(c.mu);
  auto it = s ? c.streams.find(s) : c.streams.end();
  if (it == c.streams.end()) {
    c.events.erase(e);  // recorded outside a capture: an ordinary event again
    return false;
  }
  c.events[e] = it->second;
  return true;
}

bool capture_event_wait(cudaStream_t s, cudaEvent_t e) {
  Captures& c = captures();
  std::lock_guard lock(c.mu);
  auto ev = c.events.find(e);
  auto st = s ? c.streams.find(s) : c.streams.end();
  if (ev == c.events.end()) return st != c.streams.end();  // an event from outside: nothing to record
  if (st == c.streams.end()) {
    c.streams[s] = ev->second;  // the fork: s joins the capture after the event's nodes
    return true;
  }
  add_unique(st->second.deps, ev->second.deps);
  return true;
}

cudaError_t capture_copy_2d(cudaStream_t s, void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                            std::size_t width, std::size_t height, cudaMemcpyKind kind) {
  auto n = std::make_unique<Node>();
  n->type = cudaGraphNodeTypeMemcpy;
  n->copy.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), spitch, width, height);
  n->copy.dstPtr = make_cudaPitchedPtr(dst, dpitch, width, height);
  n->copy.extent = make_cudaExtent(width, height, 1);
  n->copy.kind = kind;
  return capture(s, std::move(n));
}
cudaError_t capture_set_2d(cudaStream_t s, void* p, std::size_t pitch, int value, std::size_t width,
                           std::size_t height) {
  auto n = std::make_unique<Node>();
  n->type = cudaGraphNodeTypeMemset;
  n->set = cudaMemsetParams{p, pitch, static_cast<unsigned>(value) & 0xffu, 1, width, height};
  return capture(s, std::move(n));
}
cudaError_t capture_malloc(cudaStream_t s, void** p, std::size_t bytes) {
  if (!p || !bytes) return fail(cudaErrorInvalidValue, "cudaMallocAsync (captured): null pointer or 0 bytes");
  auto n = std::make_unique<Node>();
  n->type = cudaGraphNodeTypeMemAlloc;
  n->bytes = bytes;
  cudaStreamCaptureStatus status;
  cudaGraph_t graph = nullptr;
  const cudaGraphNode_t* deps = nullptr;
  size_t ndeps = 0;
  tgsim_cuda_stream_capture_info(s, &status, nullptr, &graph, &deps, &ndeps);
  if (cudaError_t e = place_graph_allocation(*n, *graph_of(graph), deps, ndeps, "cudaMallocAsync (captured)"))
    return e;
  *p = n->dptr;
  return capture(s, std::move(n));
}
cudaError_t capture_free(cudaStream_t s, void* p) {
  if (!is_graph_allocation(p))
    return fail(cudaErrorInvalidValue, "cudaFreeAsync (captured): only a graph's allocation can be freed in a graph");
  auto n = std::make_unique<Node>();
  n->type = cudaGraphNodeTypeMemFree;
  n->dptr = p;
  return capture(s, std::move(n));
}

}  // namespace tgsim::detail::cuda

extern "C" {

cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode) {
  auto* g = new Graph;
  const cudaError_t e = begin(s, g, true, nullptr, 0, "cudaStreamBeginCapture");
  if (e != cudaSuccess) delete g;
  return e;
}
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                          const cudaGraphEdgeData*, size_t ndeps, cudaStreamCaptureMode) {
  if (!graph) return fail(cudaErrorInvalidValue, "cudaStreamBeginCaptureToGraph: null graph");
  return begin(s, graph_of(graph), false, deps, ndeps, "cudaStreamBeginCaptureToGraph");
}
// Ends the capture that began on s: every stream that joined it leaves it.
cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t* graph) {
  Captures& c = captures();
  std::lock_guard lock(c.mu);
  auto it = s ? c.streams.find(s) : c.streams.end();
  if (it == c.streams.end()) return fail(cudaErrorIllegalState, "cudaStreamEndCapture: the stream is not captured");
  std::shared_ptr<Capture> cap = it->second.capture;
  if (cap->origin != s)
    return fail(cudaErrorStreamCaptureUnmatched, "cudaStreamEndCapture: not the stream the capture began on");
  std::erase_if(c.streams, [&](const auto& kv) { return kv.second.capture == cap; });
  std::erase_if(c.events, [&](const auto& kv) { return kv.second.capture == cap; });
  if (graph) *graph = handle_of(cap->graph);
  else if (cap->owned) delete cap->graph;
  return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus* status) {
  if (!status) return fail(cudaErrorInvalidValue, "cudaStreamIsCapturing: null status");
  *status = capturing(s) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
cudaError_t tgsim_cuda_stream_capture_info(cudaStream_t s, cudaStreamCaptureStatus* status, unsigned long long* id,
                                           cudaGraph_t* graph, const cudaGraphNode_t** deps, size_t* ndeps) {
  if (!status) return fail(cudaErrorInvalidValue, "cudaStreamGetCaptureInfo: null status");
  Captures& c = captures();
  std::lock_guard lock(c.mu);
  auto it = s ? c.streams.find(s) : c.streams.end();
  *status = it == c.streams.end() ? cudaStreamCaptureStatusNone : cudaStreamCaptureStatusActive;
  if (it == c.streams.end()) return cudaSuccess;
  if (id) *id = it->second.capture->id;
  if (graph) *graph = handle_of(it->second.capture->graph);
  // Valid until the stream's next operation, as CUDA documents.
  if (deps) *deps = reinterpret_cast<const cudaGraphNode_t*>(it->second.deps.data());
  if (ndeps) *ndeps = it->second.deps.size();
  return cudaSuccess;
}
cudaError_t tgsim_cuda_stream_update_capture(cudaStream_t s, cudaGraphNode_t* deps, size_t ndeps, unsigned flags) {
  Captures& c = captures();
  std::lock_guard lock(c.mu);
  auto it = s ? c.streams.find(s) : c.streams.end();
  if (it == c.streams.end())
    return fail(cudaErrorIllegalState, "cudaStreamUpdateCaptureDependencies: the stream is not captured");
  std::vector<Node*> fresh;
  for (size_t i = 0; i < ndeps; ++i) fresh.push_back(node_of(deps[i]));
  if (flags & cudaStreamSetCaptureDependencies) it->second.deps.clear();
  add_unique(it->second.deps, fresh);
  return cudaSuccess;
}
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  if (!mode) return fail(cudaErrorInvalidValue, "cudaThreadExchangeStreamCaptureMode: null mode");
  std::swap(*mode, thread_mode);
  return cudaSuccess;
}

cudaError_t tgsim_cuda_launch_kernel_on(const void* kernel, const unsigned* grid, const unsigned* block,
                                        size_t shared_bytes, void** args, cudaStream_t s) {
  if (!capturing(s)) return tgsim_cuda_launch_kernel(kernel, grid, block, shared_bytes, args);
  auto n = std::make_unique<Node>();
  if (cudaError_t e = set_kernel(*n, kernel, grid, block, shared_bytes, args, "kernel launch (captured)")) return e;
  return capture(s, std::move(n));
}

}  // extern "C"
