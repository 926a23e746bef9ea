// Issue 37 probe: what the H100 does, and what compute-sanitizer says, where threads of a group
// meet at different __syncthreads() sites, exit before barriers, pass warp masks that name
// exited lanes or leave themselves out, load a float4 from a misaligned address, or store to
// __constant__ memory. Each case checks its own result and prints "CASE: ok", "CASE: WRONG ..."
// or "CASE: ERROR <the CUDA error>"; checker_probe.sh runs every case plain and under synccheck,
// racecheck and memcheck. The kernels are ours (tests/check_files/); tgsim's tests run the same.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "../check_files/barrier_sites.cu"
#include "../check_files/constant_write.cu"
#include "../check_files/misaligned.cu"

namespace {

int check(const char* name, const int* got_dev, const int* want, int n) {
  int got[64];
  cudaMemcpy(got, got_dev, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("%s: ERROR %s\n", name, cudaGetErrorString(e));
    return 1;
  }
  for (int i = 0; i < n; ++i)
    if (got[i] != want[i]) {
      std::printf("%s: WRONG at %d got %d want %d\n", name, i, got[i], want[i]);
      return 1;
    }
  std::printf("%s: ok\n", name);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int *g = nullptr, *out = nullptr;
  cudaMalloc(&g, 1024 * sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  int bad = 0;
  for (int a = 1; a < argc || argc == 1; ++a) {
    const char* k = argc == 1 ? "all" : argv[a];
    const bool all = !std::strcmp(k, "all");
    int want[64];
    cudaMemset(g, 0, 1024 * sizeof(int));
    cudaMemset(out, 0xff, 64 * sizeof(int));
    if (all || !std::strcmp(k, "sites_block")) {
      sites_block<<<1, 288>>>(g, out);
      want[0] = want[1] = 256;
      bad += check("sites_block", out, want, 2);
    }
    if (all || !std::strcmp(k, "sites_warp")) {
      sites_warp<<<1, 32>>>(out);
      for (int i = 0; i < 16; ++i) want[i] = i + 1;
      bad += check("sites_warp", out, want, 16);
    }
    if (all || !std::strcmp(k, "exited_syncwarp")) {
      exited_syncwarp<<<1, 32>>>(out);
      for (int i = 0; i < 16; ++i) want[i] = (i ^ 1) * 10;
      bad += check("exited_syncwarp", out, want, 16);
    }
    if (all || !std::strcmp(k, "ballot_lanemask")) {
      ballot_lanemask<<<1, 32>>>(out);
      for (int i = 0; i < 32; ++i) want[i] = i / 3;  // lanes j < i with j % 3 == 2
      bad += check("ballot_lanemask", out, want, 32);
    }
    if (all || !std::strcmp(k, "misaligned_float4")) {
      float* in = nullptr;
      cudaMalloc(&in, 132 * sizeof(float));
      cudaMemset(in, 0, 132 * sizeof(float));
      misaligned_float4<<<1, 32>>>(in, reinterpret_cast<float4*>(g), 1);
      bad += check("misaligned_float4", g, want, 0);
      cudaFree(in);
    }
    if (all || !std::strcmp(k, "write_constant")) {
      write_constant<<<1, 32>>>(reinterpret_cast<float*>(out));
      float got[32];
      cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
      const cudaError_t e = cudaDeviceSynchronize();
      std::printf("write_constant: %s, out[0] = %g\n", e == cudaSuccess ? "no error" : cudaGetErrorString(e),
                  got[0]);
      bad += e != cudaSuccess;
    }
    if (argc == 1) break;
  }
  cudaFree(g);
  cudaFree(out);
  return bad ? 1 : 0;
}
