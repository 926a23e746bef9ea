// The rest of the host API of cuda_runtime_extras.h and cuda_memcpy3d.h: 3-D copies, host
// functions in stream order, stream and kernel-node attributes (hints: stored, no effect on
// counts), peers (one device, so no peer), CUDA IPC (one process: refused), memory pools.
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "cuda_runtime/cuda_host_graph.hpp"
#include "cuda_runtime/cuda_host_internal.hpp"

using namespace tgsim::detail::cuda;

namespace tgsim::detail::cuda {

cudaError_t copy_3d(const cudaMemcpy3DParms& p, const char* call) {
  if (sticky_error() != cudaSuccess) return sticky_error();
  if (p.srcArray || p.dstArray) return array_copy_3d(&p);  // (cuda_host_texture.cpp)
  const cudaExtent& e = p.extent;
  if (!e.width || !e.height || !e.depth) return cudaSuccess;
  if (!p.srcPtr.ptr || !p.dstPtr.ptr) return fail(cudaErrorInvalidValue, std::string(call) + ": null pointer");
  if (p.srcPos.x + e.width > p.srcPtr.pitch || p.dstPos.x + e.width > p.dstPtr.pitch)
    return fail(cudaErrorInvalidPitchValue, std::string(call) + ": a row of " + std::to_string(e.width) +
                                                " bytes exceeds the pitch");
  // A slice of a pitched pointer is ysize rows (a 2-D copy: ysize may be the extent's height).
  const std::size_t sy = p.srcPtr.ysize ? p.srcPtr.ysize : e.height, dy = p.dstPtr.ysize ? p.dstPtr.ysize : e.height;
  for (std::size_t z = 0; z < e.depth; ++z)
    for (std::size_t y = 0; y < e.height; ++y) {
      const char* s = static_cast<const char*>(p.srcPtr.ptr) +
                      ((p.srcPos.z + z) * sy + p.srcPos.y + y) * p.srcPtr.pitch + p.srcPos.x;
      char* d = static_cast<char*>(p.dstPtr.ptr) + ((p.dstPos.z + z) * dy + p.dstPos.y + y) * p.dstPtr.pitch +
                p.dstPos.x;
      std::memmove(d, s, e.width);
      host_wrote(d, e.width);
    }
  return cudaSuccess;
}

cudaError_t fill_2d(const cudaMemsetParams& p) {
  if (sticky_error() != cudaSuccess) return sticky_error();
  const std::size_t row = p.width * p.elementSize;
  if (p.height > 1 && row > p.pitch)
    return fail(cudaErrorInvalidPitchValue, "memset node: a row of " + std::to_string(row) + " bytes exceeds the pitch");
  for (std::size_t y = 0; y < p.height; ++y) {
    char* d = static_cast<char*>(p.dst) + y * p.pitch;
    for (std::size_t x = 0; x < p.width; ++x) std::memcpy(d + x * p.elementSize, &p.value, p.elementSize);
    host_wrote(d, row);
  }
  return cudaSuccess;
}

}  // namespace tgsim::detail::cuda

namespace {

std::mutex attr_mu;
std::map<std::pair<const void*, int>, cudaLaunchAttributeValue> attributes;  // (stream or node, id) -> value

cudaError_t one_device(int device, const char* call) {
  return device == 0 ? cudaSuccess
                     : fail(cudaErrorInvalidDevice, std::string(call) + ": device " + std::to_string(device) +
                                                        "; there is one device: 0");
}

cudaError_t ipc_refused(const char* call) {
  return fail(cudaErrorNotSupported, std::string(call) + ": CUDA IPC (device memory and events shared between "
                                                         "processes) is not supported by tgsim: each process "
                                                         "simulates its own device");
}

}  // namespace

extern "C" {

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  return p ? copy_3d(*p, "cudaMemcpy3D") : fail(cudaErrorInvalidValue, "cudaMemcpy3D: null parameters");
}
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t s) {
  if (!p) return fail(cudaErrorInvalidValue, "cudaMemcpy3DAsync: null parameters");
  if (capturing(s)) {
    auto n = std::make_unique<Node>();
    n->type = cudaGraphNodeTypeMemcpy;
    n->copy = *p;
    return capture(s, std::move(n));
  }
  return copy_3d(*p, "cudaMemcpy3DAsync");
}

cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void* data) {
  if (!fn) return fail(cudaErrorInvalidValue, "cudaLaunchHostFunc: null function");
  if (capturing(s)) {
    auto n = std::make_unique<Node>();
    n->type = cudaGraphNodeTypeHost;
    n->host = cudaHostNodeParams{fn, data};
    return capture(s, std::move(n));
  }
  if (sticky_error() != cudaSuccess) return sticky_error();
  fn(data);  // the stream's earlier work is done
  return cudaSuccess;
}
// The callback gets the stream's status (the sticky error of a failed launch, as on the GPU).
cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t fn, void* data, unsigned flags) {
  if (!fn || flags) return fail(cudaErrorInvalidValue, "cudaStreamAddCallback: null function, or flags other than 0");
  if (capturing(s))
    return fail(cudaErrorStreamCaptureUnsupported, "cudaStreamAddCallback: not in a captured stream (CUDA refuses "
                                                   "it too); use cudaLaunchHostFunc");
  fn(s, sticky_error(), data);
  return cudaSuccess;
}
cudaError_t cudaStreamAttachMemAsync(cudaStream_t, void*, size_t, unsigned) { return cudaSuccess; }
cudaError_t cudaStreamGetFlags(cudaStream_t, unsigned* flags) {
  if (!flags) return fail(cudaErrorInvalidValue, "cudaStreamGetFlags: null flags");
  *flags = cudaStreamDefault;
  return cudaSuccess;
}
cudaError_t cudaStreamGetPriority(cudaStream_t, int* priority) {
  if (!priority) return fail(cudaErrorInvalidValue, "cudaStreamGetPriority: null priority");
  *priority = 0;
  return cudaSuccess;
}
cudaError_t cudaStreamSetAttribute(cudaStream_t s, cudaLaunchAttributeID attr, const cudaLaunchAttributeValue* v) {
  if (!v) return fail(cudaErrorInvalidValue, "cudaStreamSetAttribute: null value");
  std::lock_guard lock(attr_mu);
  attributes[{s, attr}] = *v;
  return cudaSuccess;
}
cudaError_t cudaStreamGetAttribute(cudaStream_t s, cudaLaunchAttributeID attr, cudaLaunchAttributeValue* v) {
  if (!v) return fail(cudaErrorInvalidValue, "cudaStreamGetAttribute: null value");
  std::lock_guard lock(attr_mu);
  auto it = attributes.find({s, attr});
  *v = it == attributes.end() ? cudaLaunchAttributeValue{} : it->second;
  return cudaSuccess;
}
cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t node, cudaLaunchAttributeID attr,
                                            const cudaLaunchAttributeValue* v) {
  if (!node || !v || node_of(node)->type != cudaGraphNodeTypeKernel)
    return fail(cudaErrorInvalidValue, "cudaGraphKernelNodeSetAttribute: not a kernel node, or a null value");
  std::lock_guard lock(attr_mu);
  attributes[{node, attr}] = *v;
  return cudaSuccess;
}
cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t node, cudaLaunchAttributeID attr,
                                            cudaLaunchAttributeValue* v) {
  if (!node || !v) return fail(cudaErrorInvalidValue, "cudaGraphKernelNodeGetAttribute: null argument");
  std::lock_guard lock(attr_mu);
  auto it = attributes.find({node, attr});
  *v = it == attributes.end() ? cudaLaunchAttributeValue{} : it->second;
  return cudaSuccess;
}
cudaError_t cudaCtxResetPersistingL2Cache(void) { return cudaSuccess; }

// A pair of devices: none exists with one device (CUDA refuses a device paired with itself).
cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr, int src, int dst) {
  if (!value) return fail(cudaErrorInvalidValue, "cudaDeviceGetP2PAttribute: null value");
  if (cudaError_t e = one_device(src, "cudaDeviceGetP2PAttribute")) return e;
  if (cudaError_t e = one_device(dst, "cudaDeviceGetP2PAttribute")) return e;
  return fail(cudaErrorInvalidDevice, "cudaDeviceGetP2PAttribute: device 0 with itself; there is one device");
}
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t bytes,
                                cudaStream_t s) {
  if (cudaError_t e = one_device(dst_device, "cudaMemcpyPeerAsync")) return e;
  if (cudaError_t e = one_device(src_device, "cudaMemcpyPeerAsync")) return e;
  return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s);
}

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t*, void*) { return ipc_refused("cudaIpcGetMemHandle"); }
cudaError_t cudaIpcOpenMemHandle(void**, cudaIpcMemHandle_t, unsigned) { return ipc_refused("cudaIpcOpenMemHandle"); }
cudaError_t cudaIpcCloseMemHandle(void*) { return ipc_refused("cudaIpcCloseMemHandle"); }
cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t*, cudaEvent_t) { return ipc_refused("cudaIpcGetEventHandle"); }
cudaError_t cudaIpcOpenEventHandle(cudaEvent_t*, cudaIpcEventHandle_t) {
  return ipc_refused("cudaIpcOpenEventHandle");
}

// Memory pools: every pool allocates as cudaMallocAsync does (device memory at once); access
// descriptors and attributes are accepted; usage attributes report the bytes held.
cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props) {
  if (!pool || !props) return fail(cudaErrorInvalidValue, "cudaMemPoolCreate: null argument");
  if (props->location.type == cudaMemLocationTypeDevice)
    if (cudaError_t e = one_device(props->location.id, "cudaMemPoolCreate")) return e;
  *pool = reinterpret_cast<cudaMemPool_t>(new int(0));
  return cudaSuccess;
}
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
  cudaMemPool_t fallback = nullptr;
  cudaDeviceGetDefaultMemPool(&fallback, 0);
  if (pool != fallback) delete reinterpret_cast<int*>(pool);
  return cudaSuccess;
}
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) { return cudaDeviceGetDefaultMemPool(pool, device); }
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t) { return one_device(device, "cudaDeviceSetMemPool"); }
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  if (!pool || !value) return fail(cudaErrorInvalidValue, "cudaMemPoolGetAttribute: null argument");
  if (attr >= cudaMemPoolAttrReleaseThreshold)
    *static_cast<unsigned long long*>(value) = attr == cudaMemPoolAttrReleaseThreshold ? 0 : allocated_bytes();
  else
    *static_cast<int*>(value) = 1;
  return cudaSuccess;
}
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descs, size_t count) {
  if (!pool || (count && !descs)) return fail(cudaErrorInvalidValue, "cudaMemPoolSetAccess: null argument");
  for (size_t i = 0; i < count; ++i)
    if (descs[i].location.type == cudaMemLocationTypeDevice)
      if (cudaError_t e = one_device(descs[i].location.id, "cudaMemPoolSetAccess")) return e;
  return cudaSuccess;
}
cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t, cudaMemLocation* location) {
  if (!flags || !location) return fail(cudaErrorInvalidValue, "cudaMemPoolGetAccess: null argument");
  *flags = location->type == cudaMemLocationTypeDevice && location->id == 0 ? cudaMemAccessFlagsProtReadWrite
                                                                             : cudaMemAccessFlagsProtNone;
  return cudaSuccess;
}
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t, size_t) { return cudaSuccess; }
cudaError_t cudaMallocFromPoolAsync(void** p, size_t bytes, cudaMemPool_t, cudaStream_t s) {
  return cudaMallocAsync(p, bytes, s);
}

}  // extern "C"
