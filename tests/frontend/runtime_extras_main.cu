// More of the runtime API as public programs use it (tests/CMakeLists.txt checks the last line):
// stream attributes (hints: stored, no effect on results), device flags, peers with one device,
// CUDA IPC refused, callbacks and host functions in stream order, memory pools, 3-D copies,
// CUDA 13's location forms, __managed__ variables whose address host code passes; and host code
// that defines its own umin and a global lerp, as cuda-samples' mergeSort and helper_math.h do.
// Each CHECK compares with an exact value.
#include <math.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "exact_checks.h"

// A program's own helpers with the names CUDA's device library uses (nvcc compiles host .cpp
// files without them). This umin is deliberately the larger: the program's own must be called.
static unsigned umin(unsigned a, unsigned b) { return a < b ? b : a; }
inline float lerp(float a, float b, float t) { return a + t * (b - a); }

__global__ void square(int* p) { p[threadIdx.x] *= p[threadIdx.x]; }
// A __managed__ variable only host code names: the kernel gets its address.
__managed__ int managed_flag;
__device__ __managed__ unsigned managed_count = 5;
__global__ void clear_flag(int* flag, unsigned* count) {
  if (threadIdx.x == 3) *flag = 0;
  atomicAdd(count, 1u);
}
__global__ void device_min(unsigned* out) { out[0] = umax(3u, 9u) + ::min(4u, 7u); }

static std::vector<int> seen;
static void CUDART_CB callback(cudaStream_t s, cudaError_t status, void* data) {
  seen.push_back(status == cudaSuccess && s != nullptr ? *static_cast<int*>(data) : -1);
}
static void CUDART_CB host_fn(void* data) { seen.push_back(*static_cast<int*>(data) + 1000); }

static void attributes_and_flags(int* d) {
  CHECK(cudaSetDeviceFlags(cudaDeviceBlockingSync) == cudaSuccess);
  CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost) == cudaSuccess);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);
  cudaStreamAttrValue v = {};
  v.accessPolicyWindow.base_ptr = d;
  v.accessPolicyWindow.num_bytes = 1024;
  v.accessPolicyWindow.hitRatio = 0.6f;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v) == cudaSuccess);
  cudaStreamAttrValue back = {};
  CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &back) == cudaSuccess);
  CHECK(back.accessPolicyWindow.num_bytes == 1024 && back.accessPolicyWindow.hitRatio == 0.6f &&
        back.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting);
  for (int i = 0; i < 32; ++i) d[i] = i;
  square<<<1, 32, 0, s>>>(d);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess && d[31] == 961);
  CHECK(cudaCtxResetPersistingL2Cache() == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
}

static void peers_and_ipc(int* a, int* b) {
  int v = -1, can = -1;
  CHECK(cudaDeviceCanAccessPeer(&can, 0, 0) == cudaSuccess && can == 0);
  CHECK(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 1) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrPerformanceRank, 0, 0) == cudaErrorInvalidDevice && v == -1);
  cudaGetLastError();
  for (int i = 0; i < 64; ++i) a[i] = 3 * i;
  CHECK(cudaMemcpyPeerAsync(b, 0, a, 0, 64 * sizeof(int), 0) == cudaSuccess && b[63] == 189);
  CHECK(cudaMemcpyPeerAsync(b, 1, a, 0, 64 * sizeof(int)) == cudaErrorInvalidDevice);
  cudaGetLastError();
  cudaIpcMemHandle_t mh;
  cudaIpcEventHandle_t eh;
  cudaEvent_t e;
  CHECK(cudaEventCreate(&e, cudaEventDisableTiming | cudaEventInterprocess) == cudaSuccess);
  CHECK(cudaIpcGetMemHandle(&mh, a) == cudaErrorNotSupported);
  CHECK(cudaIpcGetEventHandle(&eh, e) == cudaErrorNotSupported);
  CHECK(cudaGetLastError() == cudaErrorNotSupported);
  CHECK(cudaEventDestroy(e) == cudaSuccess);
}

static void callbacks(int* d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  static int tag = 7;
  seen.clear();
  d[0] = 5;
  square<<<1, 1, 0, s>>>(d);
  CHECK(cudaStreamAddCallback(s, callback, d, 0) == cudaSuccess);  // after the kernel: sees 25
  CHECK(cudaLaunchHostFunc(s, host_fn, &tag) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(seen == std::vector<int>({25, 1007}));
  cudaStreamDestroy(s);
}

static void pools_and_copies() {
  cudaMemPool_t pool;
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  CHECK(cudaMemPoolCreate(&pool, &props) == cudaSuccess);
  cudaMemAccessDesc desc = {};
  desc.location.type = cudaMemLocationTypeDevice;
  desc.location.id = 0;
  desc.flags = cudaMemAccessFlagsProtReadWrite;
  CHECK(cudaMemPoolSetAccess(pool, &desc, 1) == cudaSuccess);
  desc.location.id = 1;
  CHECK(cudaMemPoolSetAccess(pool, &desc, 1) == cudaErrorInvalidDevice);
  cudaGetLastError();
  cudaMemAccessFlags flags;
  cudaMemLocation here = {cudaMemLocationTypeDevice, 0};
  CHECK(cudaMemPoolGetAccess(&flags, pool, &here) == cudaSuccess && flags == cudaMemAccessFlagsProtReadWrite);
  cudaStream_t s;
  cudaStreamCreate(&s);
  int* p = nullptr;
  CHECK(cudaMallocFromPoolAsync(&p, 4 * 6 * 5 * sizeof(int), pool, s) == cudaSuccess && p != nullptr);
  unsigned long long held = 0;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &held) == cudaSuccess && held >= 480);
  // A 3x2x2-int box from a 4x6x5-int host array into a pitched device volume and back.
  std::vector<int> host(4 * 6 * 5), out(3 * 2 * 2, -1);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>(i);
  cudaPitchedPtr vol;
  CHECK(cudaMalloc3D(&vol, make_cudaExtent(3 * sizeof(int), 2, 2)) == cudaSuccess);
  cudaMemcpy3DParms in = {};
  in.srcPtr = make_cudaPitchedPtr(host.data(), 4 * sizeof(int), 4, 6);
  in.srcPos = make_cudaPos(1 * sizeof(int), 2, 3);
  in.dstPtr = vol;
  in.extent = make_cudaExtent(3 * sizeof(int), 2, 2);
  in.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3DAsync(&in, s) == cudaSuccess);
  cudaMemcpy3DParms back = {};
  back.srcPtr = vol;
  back.dstPtr = make_cudaPitchedPtr(out.data(), 3 * sizeof(int), 3, 2);
  back.extent = in.extent;
  back.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&back) == cudaSuccess);
  // out[z][y][x] = host[(3 + z) * 24 + (2 + y) * 4 + 1 + x]
  CHECK(out[0] == 81 && out[2] == 83 && out[3] == 85 && out[6] == 105 && out[11] == 111);
  // CUDA 13's forms with a location.
  CHECK(cudaMemPrefetchAsync(p, 16, here, 0, s) == cudaSuccess);
  cudaMemLocation cpu = {cudaMemLocationTypeHost, 0};
  CHECK(cudaMemAdvise(p, 16, cudaMemAdviseSetPreferredLocation, cpu) == cudaSuccess);
  CHECK(cudaFreeAsync(p, s) == cudaSuccess && cudaFree(vol.ptr) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess && cudaMemPoolDestroy(pool) == cudaSuccess);
}

int main() {
  int *a, *b;
  unsigned* u;
  cudaMallocManaged(&a, 64 * sizeof(int));
  cudaMallocManaged(&b, 64 * sizeof(int));
  cudaMallocManaged(&u, sizeof(unsigned));
  attributes_and_flags(a);
  peers_and_ipc(a, b);
  callbacks(a);
  pools_and_copies();
  CHECK(umin(2u, 5u) == 5u && lerp(1.0f, 3.0f, 0.25f) == 1.5f);
  device_min<<<1, 1>>>(u);
  CHECK(cudaDeviceSynchronize() == cudaSuccess && *u == 13u);
  managed_flag = 1;
  clear_flag<<<1, 32>>>(&managed_flag, &managed_count);
  CHECK(cudaDeviceSynchronize() == cudaSuccess && managed_flag == 0 && managed_count == 37u);
  cudaFree(a);
  cudaFree(b);
  cudaFree(u);
  CHECK(cudaGetLastError() == cudaSuccess);
  std::printf("runtime extras: %d checks, %d failed\n", checks, failed);
  return failed ? 1 : 0;
}
