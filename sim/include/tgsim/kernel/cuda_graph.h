// CUDA graphs and stream capture (CUDA 12's names, fields and values, with CUDA 12.3+'s forms
// that take edge data), implemented in sim/src/cuda_runtime/cuda_host_graph*.cpp. A graph's nodes run in a
// deterministic topological order (a node's dependencies first, ties in the order the nodes
// were added) when its exec is launched; every stream is synchronous, so the launch is done
// when cudaGraphLaunch returns, in order with the stream's other work. While a stream is
// captured, its launches, copies, sets, host functions, event records/waits and stream-ordered
// allocations are recorded as nodes instead of run. Edge data (ports, types) is accepted and
// ignored: every edge is a full dependency. A graph's allocations (memalloc nodes) get their address when the node
// is added and keep it for every launch (one after a free of the same graph may reuse the
// freed address, as CUDA does); the memory freed graph allocations leave stays with
// graphs (cudaGraphMemAttrUsedMemCurrent) until cudaDeviceGraphMemTrim, as CUDA's allocator
// keeps it. Streams are synchronous, so graphs on different streams never need memory at once.
#ifndef TGSIM_KERNEL_CUDA_GRAPH_H
#define TGSIM_KERNEL_CUDA_GRAPH_H

#include "cuda_driver_types.h"
#include "cuda_memcpy3d.h"
#include "cuda_runtime_extras.h"
#include "cuda_vector_types.h"

typedef enum cudaGraphNodeType {
  cudaGraphNodeTypeKernel = 0,
  cudaGraphNodeTypeMemcpy = 1,
  cudaGraphNodeTypeMemset = 2,
  cudaGraphNodeTypeHost = 3,
  cudaGraphNodeTypeGraph = 4,
  cudaGraphNodeTypeEmpty = 5,
  cudaGraphNodeTypeWaitEvent = 6,
  cudaGraphNodeTypeEventRecord = 7,
  cudaGraphNodeTypeExtSemaphoreSignal = 8,
  cudaGraphNodeTypeExtSemaphoreWait = 9,
  cudaGraphNodeTypeMemAlloc = 10,
  cudaGraphNodeTypeMemFree = 11,
  cudaGraphNodeTypeConditional = 13,
  cudaGraphNodeTypeCount
} cudaGraphNodeType;

typedef enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
} cudaStreamCaptureStatus;

enum cudaStreamUpdateCaptureDependenciesFlags {
  cudaStreamAddCaptureDependencies = 0x0,
  cudaStreamSetCaptureDependencies = 0x1
};

typedef enum cudaGraphExecUpdateResult {
  cudaGraphExecUpdateSuccess = 0x0,
  cudaGraphExecUpdateError = 0x1,
  cudaGraphExecUpdateErrorTopologyChanged = 0x2,
  cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
  cudaGraphExecUpdateErrorFunctionChanged = 0x4,
  cudaGraphExecUpdateErrorParametersChanged = 0x5,
  cudaGraphExecUpdateErrorNotSupported = 0x6,
  cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
  cudaGraphExecUpdateErrorAttributesChanged = 0x8
} cudaGraphExecUpdateResult;

typedef struct cudaGraphExecUpdateResultInfo_st {
  enum cudaGraphExecUpdateResult result;
  cudaGraphNode_t errorNode;
  cudaGraphNode_t errorFromNode;
} cudaGraphExecUpdateResultInfo;

typedef enum cudaGraphMemAttributeType {
  cudaGraphMemAttrUsedMemCurrent = 0x0,
  cudaGraphMemAttrUsedMemHigh = 0x1,
  cudaGraphMemAttrReservedMemCurrent = 0x2,
  cudaGraphMemAttrReservedMemHigh = 0x3
} cudaGraphMemAttributeType;

enum cudaGraphInstantiateFlags {
  cudaGraphInstantiateFlagAutoFreeOnLaunch = 1,
  cudaGraphInstantiateFlagUpload = 2,
  cudaGraphInstantiateFlagDeviceLaunch = 4,
  cudaGraphInstantiateFlagUseNodePriority = 8
};
enum cudaGraphDebugDotFlags { cudaGraphDebugDotFlagsVerbose = 1 };

struct cudaKernelNodeParams {
  void* func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void** kernelParams;
  void** extra;
};
struct cudaKernelNodeParamsV2 {
  void* func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void** kernelParams;
  void** extra;
};
struct cudaMemsetParams {
  void* dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;  // 1, 2 or 4
  size_t width;              // in elements
  size_t height;
};
struct cudaMemsetParamsV2 {
  void* dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
};
struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void* userData;
};
struct cudaHostNodeParamsV2 {
  cudaHostFn_t fn;
  void* userData;
};
struct cudaMemcpyNodeParams {
  int flags;
  int reserved[3];
  struct cudaMemcpy3DParms copyParams;
};
struct cudaChildGraphNodeParams {
  cudaGraph_t graph;
};
struct cudaEventRecordNodeParams {
  cudaEvent_t event;
};
struct cudaEventWaitNodeParams {
  cudaEvent_t event;
};
struct cudaMemAllocNodeParams {
  struct cudaMemPoolProps poolProps;
  const struct cudaMemAccessDesc* accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void* dptr;  // out: the address every launch allocates
};
struct cudaMemAllocNodeParamsV2 {
  struct cudaMemPoolProps poolProps;
  const struct cudaMemAccessDesc* accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void* dptr;
};
struct cudaMemFreeNodeParams {
  void* dptr;
};

// Conditional nodes: a kernel sets the handle's value (cudaGraphSetConditional); an IF node
// runs its body when it is non-zero, a WHILE node while it is, a SWITCH node body[value].
typedef unsigned long long cudaGraphConditionalHandle;
typedef enum cudaGraphConditionalNodeType {
  cudaGraphCondTypeIf = 0,
  cudaGraphCondTypeWhile = 1,
  cudaGraphCondTypeSwitch = 2
} cudaGraphConditionalNodeType;
#define cudaGraphCondAssignDefault 0x1
struct cudaConditionalNodeParams {
  cudaGraphConditionalHandle handle;
  enum cudaGraphConditionalNodeType type;
  unsigned int size;         // bodies: 1 for IF and WHILE (2 for an IF with an else), any for SWITCH
  cudaGraph_t* phGraph_out;  // out: the bodies, owned by the node
};

struct cudaGraphNodeParams {
  enum cudaGraphNodeType type;
  int reserved0[3];
  union {
    long long reserved1[29];
    struct cudaKernelNodeParamsV2 kernel;
    struct cudaMemcpyNodeParams memcpy;
    struct cudaMemsetParamsV2 memset;
    struct cudaHostNodeParamsV2 host;
    struct cudaChildGraphNodeParams graph;
    struct cudaEventWaitNodeParams eventWait;
    struct cudaEventRecordNodeParams eventRecord;
    struct cudaMemAllocNodeParamsV2 alloc;
    struct cudaMemFreeNodeParams free;
    struct cudaConditionalNodeParams conditional;
  };
  long long reserved2;
};

typedef struct cudaGraphEdgeData_st {
  unsigned char from_port;
  unsigned char to_port;
  unsigned char type;
  unsigned char reserved[5];
} cudaGraphEdgeData;

#ifdef __cplusplus
extern "C" {
#endif
// Graphs and nodes (cuda_host_graph.cpp).
cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t ndeps,
                                   const struct cudaKernelNodeParams* p);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t ndeps,
                                   const struct cudaMemcpy3DParms* p);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                     size_t ndeps, void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t ndeps,
                                   const struct cudaMemsetParams* p);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t ndeps,
                                 const struct cudaHostNodeParams* p);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t ndeps);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                       size_t ndeps, cudaGraph_t child);
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                        size_t ndeps, cudaEvent_t event);
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                      size_t ndeps, cudaEvent_t event);
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                     size_t ndeps, struct cudaMemAllocNodeParams* p);
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                    size_t ndeps, void* dptr);
cudaError_t tgsim_cuda_graph_add_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                      size_t ndeps, struct cudaGraphNodeParams* p);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     size_t n);
cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* handle, cudaGraph_t graph,
                                             unsigned default_value, unsigned flags);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count);
cudaError_t tgsim_cuda_graph_get_edges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to, size_t* count);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams* p);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams* p);
cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char* path, unsigned flags);

// Instantiated graphs (cuda_host_graph_exec.cpp): a copy of the graph as it was.
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t s);
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t s);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams* p);
cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const struct cudaMemcpy3DParms* p);
cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const struct cudaMemsetParams* p);
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams* p);
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphExecUpdateResultInfo* info);
cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value);
cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value);
cudaError_t cudaDeviceGraphMemTrim(int device);

// Stream capture (cuda_host_capture.cpp).
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                          const cudaGraphEdgeData* edges, size_t ndeps, cudaStreamCaptureMode mode);
cudaError_t cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus* status);
cudaError_t tgsim_cuda_stream_capture_info(cudaStream_t s, cudaStreamCaptureStatus* status, unsigned long long* id,
                                           cudaGraph_t* graph, const cudaGraphNode_t** deps, size_t* ndeps);
cudaError_t tgsim_cuda_stream_update_capture(cudaStream_t s, cudaGraphNode_t* deps, size_t ndeps, unsigned flags);
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode);
// cudaGraphSetConditional from a kernel.
void tgsim_cuda_graph_set_conditional(cudaGraphConditionalHandle handle, unsigned value);
#ifdef __cplusplus
}

// The C++ forms: CUDA 12's and CUDA 12.3+'s (with edge data) side by side, default arguments.
inline cudaError_t cudaGraphAddNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                    size_t ndeps, cudaGraphNodeParams* p) {
  return tgsim_cuda_graph_add_node(node, graph, deps, ndeps, p);
}
inline cudaError_t cudaGraphAddNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                    const cudaGraphEdgeData*, size_t ndeps, cudaGraphNodeParams* p) {
  return tgsim_cuda_graph_add_node(node, graph, deps, ndeps, p);
}
inline cudaError_t cudaGraphAddNode_v2(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                       const cudaGraphEdgeData* e, size_t ndeps, cudaGraphNodeParams* p) {
  return cudaGraphAddNode(node, graph, deps, e, ndeps, p);
}
inline cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* handle, cudaGraph_t graph) {
  return cudaGraphConditionalHandleCreate(handle, graph, 0, 0);
}
inline cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* handle, cudaGraph_t graph,
                                                    unsigned default_value) {
  return cudaGraphConditionalHandleCreate(handle, graph, default_value, 0);
}
inline cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to, size_t* count) {
  return tgsim_cuda_graph_get_edges(graph, from, to, count);
}
inline cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                                     cudaGraphEdgeData*, size_t* count) {
  return tgsim_cuda_graph_get_edges(graph, from, to, count);
}
inline cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, cudaStreamCaptureStatus* status,
                                            unsigned long long* id = nullptr, cudaGraph_t* graph = nullptr,
                                            const cudaGraphNode_t** deps = nullptr, size_t* ndeps = nullptr) {
  return tgsim_cuda_stream_capture_info(s, status, id, graph, deps, ndeps);
}
inline cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, cudaStreamCaptureStatus* status, unsigned long long* id,
                                            cudaGraph_t* graph, const cudaGraphNode_t** deps,
                                            const cudaGraphEdgeData** edges, size_t* ndeps) {
  if (edges) *edges = nullptr;  // every edge is a default one
  return tgsim_cuda_stream_capture_info(s, status, id, graph, deps, ndeps);
}
inline cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t s, cudaStreamCaptureStatus* status,
                                               unsigned long long* id = nullptr, cudaGraph_t* graph = nullptr,
                                               const cudaGraphNode_t** deps = nullptr, size_t* ndeps = nullptr) {
  return tgsim_cuda_stream_capture_info(s, status, id, graph, deps, ndeps);
}
inline cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t* deps, size_t ndeps,
                                                       unsigned flags = 0) {
  return tgsim_cuda_stream_update_capture(s, deps, ndeps, flags);
}
inline cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t* deps, const cudaGraphEdgeData*,
                                                       size_t ndeps, unsigned flags) {
  return tgsim_cuda_stream_update_capture(s, deps, ndeps, flags);
}
inline cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                                 const cudaGraphEdgeData* edges, size_t ndeps) {
  return cudaStreamBeginCaptureToGraph(s, graph, deps, edges, ndeps, cudaStreamCaptureModeGlobal);
}
inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphNode_t* error_node,
                                       cudaGraphExecUpdateResult* result) {
  cudaGraphExecUpdateResultInfo info{};
  const cudaError_t e = cudaGraphExecUpdate(exec, graph, &info);
  if (error_node) *error_node = info.errorNode;
  if (result) *result = info.result;
  return e;
}
template <class F>
cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                           size_t ndeps, const F& symbol, const void* src, size_t bytes,
                                           size_t offset, cudaMemcpyKind kind) {
  return cudaGraphAddMemcpyNode1D(node, graph, deps, ndeps,
                                  static_cast<char*>(const_cast<void*>(static_cast<const volatile void*>(&symbol))) +
                                      offset,
                                  src, bytes, kind);
}
// In a kernel: sets the handle's value for the conditional node that follows.
__attribute__((always_inline)) inline void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned value) {
  tgsim_cuda_graph_set_conditional(handle, value);
}
#endif

#endif
