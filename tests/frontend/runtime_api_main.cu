// The CUDA runtime API as whole programs use it (tests/CMakeLists.txt checks the last line):
// pinned, mapped, managed, pitched and registered memory, async copies and sets, device
// attributes and properties (the H100 profile), kernel attributes and occupancy, streams and
// events with flags, versions and nvcc's macros. Each CHECK compares with an exact value.
#include <cstdio>
#include <cstring>

#if !defined(__CUDACC__) || !defined(CUDART_VERSION) || CUDART_VERSION < 11000 || !defined(__DRIVER_TYPES_H__)
#error "nvcc's macros"
#endif

#include "exact_checks.h"

__global__ void scale_rows(float* m, size_t pitch, int width, int height, float k) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height) {
    float* row = reinterpret_cast<float*>(reinterpret_cast<char*>(m) + y * pitch);
    row[x] *= k;
  }
}

__global__ void add_one(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

__global__ void tile_sum(const int* in, int* out) {
  __shared__ int tile[256];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < 256; ++i) s += tile[i];
    out[blockIdx.x] = s;
  }
}

static void memory() {
  // Pinned and mapped host memory: a kernel writes it through the device pointer.
  int* pinned = nullptr;
  CHECK(cudaHostAlloc((void**)&pinned, 64 * sizeof(int), cudaHostAllocMapped) == cudaSuccess);
  for (int i = 0; i < 64; ++i) pinned[i] = i;
  int* mapped = nullptr;
  CHECK(cudaHostGetDevicePointer((void**)&mapped, pinned, 0) == cudaSuccess);
  add_one<<<2, 32>>>(mapped, 64);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(pinned[0] == 1 && pinned[63] == 64);
  CHECK(cudaFreeHost(pinned) == cudaSuccess);
  float* host = nullptr;
  CHECK(cudaMallocHost(&host, 8 * sizeof(float)) == cudaSuccess);
  CHECK(cudaFreeHost(host) == cudaSuccess);

  // Managed memory, with prefetch and advice.
  int* managed = nullptr;
  CHECK(cudaMallocManaged(&managed, 100 * sizeof(int)) == cudaSuccess);
  for (int i = 0; i < 100; ++i) managed[i] = 2 * i;
  CHECK(cudaMemAdvise(managed, 100 * sizeof(int), cudaMemAdviseSetReadMostly, 0) == cudaSuccess);
  CHECK(cudaMemPrefetchAsync(managed, 100 * sizeof(int), 0) == cudaSuccess);
  add_one<<<1, 128>>>(managed, 100);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(managed[99] == 199);

  // Pitched memory: rows padded to 512 bytes; 2D copies and sets.
  const int width = 5, height = 3;
  float* pitched = nullptr;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&pitched, &pitch, width * sizeof(float), height) == cudaSuccess);
  CHECK(pitch == 512);
  float h[height][width];
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) h[y][x] = float(10 * y + x);
  CHECK(cudaMemset2D(pitched, pitch, 0, width * sizeof(float), height) == cudaSuccess);
  CHECK(cudaMemcpy2D(pitched, pitch, h, width * sizeof(float), width * sizeof(float), height,
                     cudaMemcpyHostToDevice) == cudaSuccess);
  scale_rows<<<dim3(1, height), 32>>>(pitched, pitch, width, height, 2.0f);
  float back[height][width];
  CHECK(cudaMemcpy2D(back, width * sizeof(float), pitched, pitch, width * sizeof(float), height,
                     cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back[2][4] == 48.0f && back[1][0] == 20.0f);
  CHECK(cudaMemcpy2D(back, 4, pitched, pitch, 8, 1, cudaMemcpyDeviceToHost) == cudaErrorInvalidPitchValue);
  cudaGetLastError();
  cudaPitchedPtr p3;
  CHECK(cudaMalloc3D(&p3, make_cudaExtent(600, 2, 2)) == cudaSuccess);
  CHECK(p3.pitch == 1024 && p3.xsize == 600 && p3.ysize == 2);
  CHECK(cudaFree(p3.ptr) == cudaSuccess);
  CHECK(cudaFree(pitched) == cudaSuccess);

  // Free memory drops by what is allocated.
  size_t free0 = 0, total = 0, free1 = 0;
  CHECK(cudaMemGetInfo(&free0, &total) == cudaSuccess);
  CHECK(total == (size_t(80) << 30));
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 1 << 20) == cudaSuccess);
  CHECK(cudaMemGetInfo(&free1, &total) == cudaSuccess);
  CHECK(free0 - free1 == (1u << 20));

  // Async copies and sets on a created stream.
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  int src[4] = {5, 6, 7, 8}, dst[4] = {0, 0, 0, 0};
  CHECK(cudaMemsetAsync(d, 0, 16, s) == cudaSuccess);
  CHECK(cudaMemcpyAsync(d, src, 8, cudaMemcpyHostToDevice, s) == cudaSuccess);
  CHECK(cudaMemcpyAsync(dst, d, 16, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess && cudaStreamQuery(s) == cudaSuccess);
  CHECK(dst[0] == 5 && dst[1] == 6 && dst[2] == 0 && dst[3] == 0);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);

  // Registered host memory is usable by a kernel.
  static int reg[32];
  CHECK(cudaHostRegister(reg, sizeof reg, cudaHostRegisterMapped) == cudaSuccess);
  add_one<<<1, 32>>>(reg, 32);
  CHECK(reg[31] == 1);
  CHECK(cudaHostUnregister(reg) == cudaSuccess);
}

static void device() {
  int v = 0;
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0) == cudaSuccess && v == 132);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, 0) == cudaSuccess && v == 48 * 1024);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0) == cudaSuccess && v == 227 * 1024);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0) == cudaSuccess && v == 9);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0) == cudaSuccess && v == 32);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0) == cudaSuccess && v == 1980000);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerMultiProcessor, 0) == cudaSuccess && v == 2048);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 1) == cudaErrorInvalidDevice);
  cudaGetLastError();
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  CHECK(prop.multiProcessorCount == 132 && prop.major == 9 && prop.minor == 0 && prop.warpSize == 32);
  CHECK(prop.sharedMemPerMultiprocessor == 228 * 1024 && prop.l2CacheSize == 50 * 1024 * 1024);
  CHECK(prop.managedMemory == 1 && prop.maxThreadsPerMultiProcessor == 2048 && prop.maxGridSize[1] == 65535);
  CHECK(std::strncmp(prop.name, "tgsim nvidia-h100", 17) == 0);
  int driver = 0, runtime = 0;
  CHECK(cudaDriverGetVersion(&driver) == cudaSuccess && cudaRuntimeGetVersion(&runtime) == cudaSuccess);
  CHECK(driver == CUDART_VERSION && runtime == CUDART_VERSION);
  CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1) == cudaSuccess);
  CHECK(cudaSetDeviceFlags(cudaDeviceMapHost) == cudaSuccess);
}

static void kernels() {
  CHECK(cudaFuncSetCacheConfig(tile_sum, cudaFuncCachePreferShared) == cudaSuccess);
  CHECK(cudaFuncSetAttribute(tile_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024) == cudaSuccess);
  CHECK(cudaFuncSetAttribute(tile_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024) ==
        cudaErrorInvalidValue);
  cudaGetLastError();
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, tile_sum) == cudaSuccess);
  CHECK(attr.sharedSizeBytes == 1024 && attr.maxThreadsPerBlock == 1024);
  int blocks = 0;
  // 256 threads: 8 warps, 64 / 8 = 8 blocks; 48 KiB of dynamic shared (+1 KiB static, +1 KiB
  // reserved): 228 / 50 = 4 blocks.
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tile_sum, 256, 0) == cudaSuccess && blocks == 8);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tile_sum, 256, 48 * 1024) == cudaSuccess &&
        blocks == 4);
  int min_grid = 0, block = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, tile_sum) == cudaSuccess);
  CHECK(block == 1024 && min_grid == 2 * 132);
  // cudaLaunchKernel with its arguments as pointers.
  int *in = nullptr, *out = nullptr;
  cudaMallocManaged(&in, 512 * sizeof(int));
  cudaMallocManaged(&out, 2 * sizeof(int));
  for (int i = 0; i < 512; ++i) in[i] = i;
  void* args[] = {&in, &out};
  CHECK(cudaLaunchKernel((const void*)tile_sum, dim3(2), dim3(256), args, 0, nullptr) == cudaSuccess);
  CHECK(out[0] == 255 * 128 && out[1] == 256 * 256 + 255 * 128);
  cudaFree(in);
  cudaFree(out);
}

static void events() {
  cudaEvent_t a, b, quiet;
  CHECK(cudaEventCreate(&a) == cudaSuccess && cudaEventCreateWithFlags(&b, cudaEventBlockingSync) == cudaSuccess);
  CHECK(cudaEventCreateWithFlags(&quiet, cudaEventDisableTiming) == cudaSuccess);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(cudaEventRecord(a, s) == cudaSuccess && cudaEventRecord(quiet, s) == cudaSuccess);
  CHECK(cudaStreamWaitEvent(s, quiet, 0) == cudaSuccess);
  CHECK(cudaEventRecord(b) == cudaSuccess && cudaEventQuery(b) == cudaSuccess);
  CHECK(cudaEventSynchronize(b) == cudaSuccess);
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, a, b) == cudaSuccess && ms >= 0);
  CHECK(cudaEventElapsedTime(&ms, a, quiet) == cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  cudaGraph_t g;  // capture of an empty stream: an empty graph (graph_main.cu tests graphs)
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  CHECK(cudaStreamEndCapture(s, &g) == cudaSuccess && cudaGraphDestroy(g) == cudaSuccess);
  CHECK(cudaEventDestroy(a) == cudaSuccess && cudaEventDestroy(b) == cudaSuccess);
  CHECK(cudaEventDestroy(quiet) == cudaSuccess && cudaStreamDestroy(s) == cudaSuccess);
}

int main() {
  memory();
  device();
  kernels();
  events();
  CHECK(cudaGetLastError() == cudaSuccess);
  std::printf("runtime API: %d checks, %d failed\n", checks, failed);
  return failed ? 1 : 0;
}
