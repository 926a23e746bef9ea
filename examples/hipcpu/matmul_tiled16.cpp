// The tiled 16x16 matmul of kernels/matmul.cu (matmul_tiled<16>) as a HIP program for HIP-CPU
// (ROCm's header-only HIP runtime for CPUs, github.com/ROCm-Developer-Tools/HIP-CPU, e112c93),
// the yardstick of tgsim's speed: the same kernel run the same way (a fiber per thread, tiles
// in shared memory, two barriers per tile) with nothing counted. Nothing in this repository
// builds it or HIP-CPU (third-party code stays outside): build it yourself against a HIP-CPU
// checkout (C++20, its include folder, oneTBB and pthreads) and hand the program to
// `tgsim bench --hipcpu PROGRAM`.
// Run: `taskset -c 0 ./hipcpu_tiled16 512 5` prints the minimum time of 5 launches and the
// time per access, counted as tgsim counts them (global and shared loads and stores).
#include <hip/hip_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int TILE = 16;

__global__ void matmul_tiled16(const float* A, const float* B, float* C, int n) {
  __shared__ float tileA[TILE][TILE];
  __shared__ float tileB[TILE][TILE];
  int lx = threadIdx.x;
  int ly = threadIdx.y;
  int row = blockIdx.y * TILE + ly;
  int col = blockIdx.x * TILE + lx;
  float sum = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    int aCol = t * TILE + lx;
    int bRow = t * TILE + ly;
    tileA[ly][lx] = (row < n && aCol < n) ? A[row * n + aCol] : 0.0f;
    tileB[ly][lx] = (bRow < n && col < n) ? B[bRow * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += tileA[ly][k] * tileB[k][lx];
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = sum;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 512;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::size_t count = std::size_t(n) * n;
  std::vector<float> a(count), b(count);
  for (std::size_t i = 0; i < count; ++i) a[i] = float(int(i % 7) - 3), b[i] = float(int(i % 5) - 2);
  float *A, *B, *C;
  hipMalloc(&A, count * sizeof(float));
  hipMalloc(&B, count * sizeof(float));
  hipMalloc(&C, count * sizeof(float));
  hipMemcpy(A, a.data(), count * sizeof(float), hipMemcpyHostToDevice);
  hipMemcpy(B, b.data(), count * sizeof(float), hipMemcpyHostToDevice);
  const int tiles = (n + TILE - 1) / TILE;
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    hipLaunchKernelGGL(matmul_tiled16, dim3(tiles, tiles), dim3(TILE, TILE), 0, nullptr, A, B, C, n);
    hipDeviceSynchronize();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::vector<float> c(count);
  hipMemcpy(c.data(), C, count * sizeof(float), hipMemcpyDeviceToHost);
  double check = 0;  // C[0][0] against the host's sum
  for (int k = 0; k < n; ++k) check += double(a[std::size_t(k)]) * b[std::size_t(k) * n];
  // Per thread: per tile 2 global loads, 2 shared stores, 2 x 16 shared loads; then one store.
  const double accesses = double(tiles) * tiles * TILE * TILE * (36.0 * tiles + 1.0);
  std::printf("hipcpu matmul_tiled16 n=%d seconds=%.6f accesses=%.0f ns_per_access=%.3f c00=%s\n", n, best,
              accesses, best * 1e9 / accesses, double(c[0]) == check ? "ok" : "WRONG");
  hipFree(A), hipFree(B), hipFree(C);
  return double(c[0]) == check ? 0 : 1;
}
