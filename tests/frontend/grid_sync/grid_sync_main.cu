// cooperative_groups' grid sync under cudaLaunchCooperativeKernel, as public programs use it:
// a multi-block reduction in one launch, rounds that read other blocks' values of the round
// before, a grid sized from the occupancy API (the largest the device holds at once), and
// the runtime's refusal of a grid larger than that. Each check prints its result; the test
// passes on "grid sync: 8 checks, 0 failed".
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

// Sums `in` into out[0]: each block's sum to partial[block], a grid sync, then thread 0 of the
// grid adds the partials. (The reductionMultiBlockCG pattern.)
__global__ void grid_sum(const int* in, int* partial, int* out, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ int s[128];
  int v = 0;
  for (unsigned long long i = grid.thread_rank(); i < static_cast<unsigned long long>(n); i += grid.size()) v += in[i];
  s[block.thread_rank()] = v;
  block.sync();
  for (unsigned k = blockDim.x / 2; k > 0; k /= 2) {
    if (block.thread_rank() < k) s[block.thread_rank()] += s[block.thread_rank() + k];
    block.sync();
  }
  if (block.thread_rank() == 0) partial[blockIdx.x] = s[0];
  grid.sync();
  if (grid.thread_rank() == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    out[0] = t;
  }
}

// Each round every element takes its right neighbour's value of the round before (a rotation
// by one across block boundaries): after r rounds a[i] = (i + r) % n.
__global__ void rotate_rounds(int* a, int* b, int rounds) {
  cg::grid_group g = cg::this_grid();
  const unsigned long long i = g.thread_rank(), n = g.size();
  for (int r = 0; r < rounds; ++r) {
    b[i] = a[(i + 1) % n];
    g.sync();
    a[i] = b[i];
    cg::sync(g);
  }
}

__global__ void grid_shape(unsigned long long* out) {
  extern __shared__ int dyn[];  // sized at launch: it sets how many groups an SM holds
  cg::grid_group g = cg::this_grid();
  dyn[threadIdx.x] = static_cast<int>(threadIdx.x);
  if (g.is_valid()) g.sync();  // every thread of the largest co-resident grid parks once
  if (dyn[threadIdx.x] != static_cast<int>(threadIdx.x)) out[5] = 1;  // shared memory kept across the sync
  if (g.thread_rank() == 0) {
    out[0] = g.is_valid();
    out[1] = g.num_blocks();
    out[2] = g.num_threads();
    out[3] = g.dim_blocks().x;
  }
  if (g.thread_rank() == g.size() - 1) out[4] = g.block_rank();
}

static int checks = 0, failed = 0;
static void check(bool ok, const char* what) {
  ++checks;
  if (!ok) ++failed;
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
}

int main() {
  int dev = 0;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  check(prop.cooperativeLaunch == 1, "the device supports cooperative launches");

  const int n = 5000, threads = 128;
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sum, threads, 0);
  const int blocks = 6;
  std::vector<int> h(n);
  long long want = 0;
  for (int i = 0; i < n; ++i) h[i] = (i * 7) % 13 - 6, want += h[i];
  int *in, *partial, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&partial, blocks * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int nn = n;
  void* args[] = {&in, &partial, &out, &nn};
  cudaError_t e = cudaLaunchCooperativeKernel((void*)grid_sum, dim3(blocks), dim3(threads), args, 0, nullptr);
  check(e == cudaSuccess, "cudaLaunchCooperativeKernel of grid_sum succeeds");
  int got = 0;
  cudaMemcpy(&got, out, sizeof(int), cudaMemcpyDeviceToHost);
  check(got == want, "grid_sum: the sum over 6 blocks after a grid sync");

  const int rb = 4, rt = 64, rn = rb * rt, rounds = 3;
  int *a, *b;
  cudaMalloc(&a, rn * sizeof(int));
  cudaMalloc(&b, rn * sizeof(int));
  std::vector<int> ha(rn);
  for (int i = 0; i < rn; ++i) ha[i] = i;
  cudaMemcpy(a, ha.data(), rn * sizeof(int), cudaMemcpyHostToDevice);
  int r = rounds;
  void* rargs[] = {&a, &b, &r};
  e = cudaLaunchCooperativeKernel(rotate_rounds, dim3(rb), dim3(rt), rargs);
  check(e == cudaSuccess, "cudaLaunchCooperativeKernel of rotate_rounds succeeds");
  cudaMemcpy(ha.data(), a, rn * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < rn; ++i) wrong += ha[i] != (i + rounds) % rn;
  check(wrong == 0, "rotate_rounds: every element rotated by 3 across the blocks");

  // The largest grid the device holds at once, as programs size it: 64 threads and 100,000 bytes
  // of dynamic shared memory a group, so shared memory sets the limit (2 per SM on the H100).
  unsigned long long* shape;
  cudaMalloc(&shape, 6 * sizeof(unsigned long long));
  cudaMemset(shape, 0, 6 * sizeof(unsigned long long));
  const int st = 64, dyn = 100000;
  cudaFuncSetAttribute(grid_shape, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn);
  int shape_per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&shape_per_sm, grid_shape, st, dyn);
  const int most = shape_per_sm * prop.multiProcessorCount;
  void* sargs[] = {&shape};
  e = cudaLaunchCooperativeKernel((void*)grid_shape, dim3(most), dim3(st), sargs, dyn, nullptr);
  unsigned long long hs[6] = {};
  cudaMemcpy(hs, shape, sizeof hs, cudaMemcpyDeviceToHost);
  check(e == cudaSuccess && shape_per_sm == 2 && hs[0] == 1 && hs[1] == (unsigned long long)most &&
            hs[2] == (unsigned long long)most * st && hs[3] == (unsigned long long)most &&
            hs[4] == (unsigned long long)most - 1 && hs[5] == 0,
        "grid_shape at the device's limit: is_valid, num_blocks, num_threads, dim_blocks, block_rank, shared kept");

  e = cudaLaunchCooperativeKernel((void*)grid_shape, dim3(most + 1), dim3(st), sargs, dyn, nullptr);
  check(e == cudaErrorCooperativeLaunchTooLarge, "one block more is cudaErrorCooperativeLaunchTooLarge");
  cudaGetLastError();

  // An ordinary launch of the same kernel: is_valid() is false there.
  grid_shape<<<2, 32, 32 * sizeof(int)>>>(shape);
  cudaMemcpy(hs, shape, sizeof hs, cudaMemcpyDeviceToHost);
  check(hs[0] == 0, "grid_shape under <<<>>>: is_valid() is false");

  std::printf("grid sync: %d checks, %d failed\n", checks, failed);
  return failed ? 1 : 0;
}
