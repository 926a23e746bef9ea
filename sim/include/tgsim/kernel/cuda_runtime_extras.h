// More of the CUDA runtime's host API (CUDA 12's names and values), implemented in
// sim/src/cuda_runtime/cuda_host_peer.cpp: host functions and callbacks in stream order, stream and launch
// attributes, peers (one device), CUDA IPC (refused: one process), memory pools, device flags.
// Attributes and advice (access policy windows, persisting L2, priorities, cudaMemAdvise) are
// hints: accepted and stored for the matching Get call; they change no count or result.
#ifndef TGSIM_KERNEL_CUDA_RUNTIME_EXTRAS_H
#define TGSIM_KERNEL_CUDA_RUNTIME_EXTRAS_H

#include "cuda_driver_types.h"
#include "cuda_host_api.h"

#ifndef CUDART_CB
#define CUDART_CB
#endif
typedef void(CUDART_CB* cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void* data);
typedef void(CUDART_CB* cudaHostFn_t)(void* data);

// cudaSetDeviceFlags: the old name of cudaDeviceScheduleBlockingSync, and the mask.
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceScheduleMask 0x07
#define cudaDeviceMask 0xff
#define cudaArrayDefault 0x00

// Stream and launch attributes (cudaStreamSetAttribute, cudaGraphKernelNodeSetAttribute).
enum cudaAccessProperty {
  cudaAccessPropertyNormal = 0,
  cudaAccessPropertyStreaming = 1,
  cudaAccessPropertyPersisting = 2
};
typedef struct cudaAccessPolicyWindow {
  void* base_ptr;
  size_t num_bytes;
  float hitRatio;
  enum cudaAccessProperty hitProp;
  enum cudaAccessProperty missProp;
} cudaAccessPolicyWindow;
enum cudaSynchronizationPolicy {
  cudaSyncPolicyAuto = 1,
  cudaSyncPolicySpin = 2,
  cudaSyncPolicyYield = 3,
  cudaSyncPolicyBlockingSync = 4
};
typedef enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
  cudaLaunchAttributeMemSyncDomainMap = 9,
  cudaLaunchAttributeMemSyncDomain = 10
} cudaLaunchAttributeID;
typedef union cudaLaunchAttributeValue {
  char pad[64];
  struct cudaAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  enum cudaSynchronizationPolicy syncPolicy;
  struct {
    unsigned int x, y, z;
  } clusterDim;
  int programmaticStreamSerializationAllowed;
  int priority;
} cudaLaunchAttributeValue;
#define cudaStreamAttrID cudaLaunchAttributeID
#define cudaStreamAttrValue cudaLaunchAttributeValue
#define cudaStreamAttributeAccessPolicyWindow cudaLaunchAttributeAccessPolicyWindow
#define cudaStreamAttributeSynchronizationPolicy cudaLaunchAttributeSynchronizationPolicy
#define cudaStreamAttributePriority cudaLaunchAttributePriority
#define cudaKernelNodeAttrID cudaLaunchAttributeID
#define cudaKernelNodeAttrValue cudaLaunchAttributeValue
#define cudaKernelNodeAttributeAccessPolicyWindow cudaLaunchAttributeAccessPolicyWindow
#define cudaKernelNodeAttributeCooperative cudaLaunchAttributeCooperative
#define cudaKernelNodeAttributePriority cudaLaunchAttributePriority

// Peers: there is one device, so no pair of devices exists.
typedef enum cudaDeviceP2PAttr {
  cudaDevP2PAttrPerformanceRank = 1,
  cudaDevP2PAttrAccessSupported = 2,
  cudaDevP2PAttrNativeAtomicSupported = 3,
  cudaDevP2PAttrCudaArrayAccessSupported = 4
} cudaDeviceP2PAttr;

// CUDA IPC: handles of memory and events for another process.
#define CUDA_IPC_HANDLE_SIZE 64
#define cudaIpcMemLazyEnablePeerAccess 0x01
typedef struct cudaIpcEventHandle_st {
  char reserved[CUDA_IPC_HANDLE_SIZE];
} cudaIpcEventHandle_t;
typedef struct cudaIpcMemHandle_st {
  char reserved[CUDA_IPC_HANDLE_SIZE];
} cudaIpcMemHandle_t;

// Memory pools and locations (cudaMallocAsync, cudaMemPoolSetAccess, graph allocations).
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4
};
struct cudaMemLocation {
  enum cudaMemLocationType type;
  int id;
};
enum cudaMemAccessFlags {
  cudaMemAccessFlagsProtNone = 0,
  cudaMemAccessFlagsProtRead = 1,
  cudaMemAccessFlagsProtReadWrite = 3
};
struct cudaMemAccessDesc {
  struct cudaMemLocation location;
  enum cudaMemAccessFlags flags;
};
enum cudaMemAllocationType {
  cudaMemAllocationTypeInvalid = 0,
  cudaMemAllocationTypePinned = 1,
  cudaMemAllocationTypeMax = 0x7FFFFFFF
};
enum cudaMemAllocationHandleType {
  cudaMemHandleTypeNone = 0,
  cudaMemHandleTypePosixFileDescriptor = 1,
  cudaMemHandleTypeWin32 = 2,
  cudaMemHandleTypeWin32Kmt = 4,
  cudaMemHandleTypeFabric = 8
};
struct cudaMemPoolProps {
  enum cudaMemAllocationType allocType;
  enum cudaMemAllocationHandleType handleTypes;
  struct cudaMemLocation location;
  void* win32SecurityAttributes;
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};

#ifdef __cplusplus
extern "C" {
#endif
// Host work in stream order: run now (streams are synchronous), or recorded while captured.
cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void* data);
cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t fn, void* data, unsigned flags);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, void* p, size_t bytes, unsigned flags);
cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned* flags);
cudaError_t cudaStreamGetPriority(cudaStream_t s, int* priority);
cudaError_t cudaStreamSetAttribute(cudaStream_t s, cudaLaunchAttributeID attr, const cudaLaunchAttributeValue* value);
cudaError_t cudaStreamGetAttribute(cudaStream_t s, cudaLaunchAttributeID attr, cudaLaunchAttributeValue* value);
cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t node, cudaLaunchAttributeID attr,
                                            const cudaLaunchAttributeValue* value);
cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t node, cudaLaunchAttributeID attr,
                                            cudaLaunchAttributeValue* value);
cudaError_t cudaCtxResetPersistingL2Cache(void);

cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attr, int src_device, int dst_device);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t bytes,
                                cudaStream_t s);

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t* handle, void* p);
cudaError_t cudaIpcOpenMemHandle(void** p, cudaIpcMemHandle_t handle, unsigned flags);
cudaError_t cudaIpcCloseMemHandle(void* p);
cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t* handle, cudaEvent_t event);
cudaError_t cudaIpcOpenEventHandle(cudaEvent_t* event, cudaIpcEventHandle_t handle);

cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const struct cudaMemPoolProps* props);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value);
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const struct cudaMemAccessDesc* descs, size_t count);
cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags* flags, cudaMemPool_t pool, struct cudaMemLocation* location);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep_bytes);
cudaError_t cudaMallocFromPoolAsync(void** p, size_t bytes, cudaMemPool_t pool, cudaStream_t s);
#ifdef __cplusplus
}
inline cudaError_t cudaEventCreate(cudaEvent_t* e, unsigned flags) { return cudaEventCreateWithFlags(e, flags); }
inline cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t bytes) {
  return cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, nullptr);
}
// CUDA 13's forms that name a location (a device, or the host) instead of a device number.
inline cudaError_t cudaMemPrefetchAsync(const void* p, size_t bytes, struct cudaMemLocation loc, unsigned,
                                        cudaStream_t s = nullptr) {
  return cudaMemPrefetchAsync(p, bytes, loc.type == cudaMemLocationTypeDevice ? loc.id : cudaCpuDeviceId, s);
}
inline cudaError_t cudaMemAdvise(const void* p, size_t bytes, cudaMemoryAdvise advice, struct cudaMemLocation loc) {
  return cudaMemAdvise(p, bytes, advice, loc.type == cudaMemLocationTypeDevice ? loc.id : cudaCpuDeviceId);
}
template <class T>
cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, T* p, size_t bytes = 0, unsigned flags = cudaMemAttachSingle) {
  return cudaStreamAttachMemAsync(s, static_cast<void*>(p), bytes, flags);
}
template <class T> cudaError_t cudaMallocAsync(T** p, size_t bytes, cudaMemPool_t pool, cudaStream_t s) {
  return cudaMallocFromPoolAsync(reinterpret_cast<void**>(p), bytes, pool, s);
}
template <class T> cudaError_t cudaMallocFromPoolAsync(T** p, size_t bytes, cudaMemPool_t pool, cudaStream_t s) {
  return cudaMallocFromPoolAsync(reinterpret_cast<void**>(p), bytes, pool, s);
}
template <class T> cudaError_t cudaIpcOpenMemHandle(T** p, cudaIpcMemHandle_t handle, unsigned flags) {
  return cudaIpcOpenMemHandle(reinterpret_cast<void**>(p), handle, flags);
}
#endif

#endif
