// Probe for issue 8: why the H100 sends fewer of the matmuls' L1 load misses to L2
// (lts__t_sectors_srcunit_tex_op_read) than tgsim's per-SM L1 model counts, while the
// transposes' L2 reads are exact. Run by l2_probe.sh (which holds the exact ncu command).
//
//   nvcc -std=c++20 -arch=sm_90 -O3 -I kernels -I sim/include tests/hardware/l2_probe.cu -o l2_probe
//   l2_probe place FILE    (no profiler) writes to FILE:
//       "gpc SM GPC" lines: the SM -> GPC map, found from thread-block clusters (the blocks of
//         one cluster always share a GPC; union-find over many cluster launches);
//       "blk KERNEL OCC REP BLOCK SMID T0 T1" lines: where each block of the four matmul
//         launches at N=256 ran (%smid) and when (%globaltimer ns, relative to the launch's
//         first block), for the default occupancy (OCC=def) and one block per SM (OCC=one,
//         forced with 200 KiB of dynamic shared memory); three repetitions each.
//   l2_probe count FILE LABELS   (under ncu) reads the GPC map from FILE and launches, in this
//       order, the profiled kernels listed in LABELS (one label per line: ncu ID i = line i):
//       the four matmuls at N=256 (kernels/matmul.cu, the fixture's code) with the full grid
//       three times, the full grid with one block per SM, one block, one block row (blocks that
//       share A) and one block column (blocks that share B); then probe_read, where every
//       block reads a 16 KiB region chosen by the SM it runs on (one block per SM, 132 blocks):
//       all SMs the same region, all different, pairs of SMs (smid/2), the SMs of one GPC,
//       pairs across GPCs, and the same with a delay of 25 us x SM index (no concurrency);
//       and one block whose 8 warps each read the same region (merging inside one L1).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "matmul.cu"

#define CK(call)                                                                             \
  do {                                                                                       \
    cudaError_t e_ = (call);                                                                 \
    if (e_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(2);                                                                          \
    }                                                                                        \
  } while (0)

namespace {

constexpr int kN = 256;
constexpr int kMaxSm = 256;
constexpr int kRegionFloats = 4096;  // 16 KiB = 512 sectors
constexpr size_t kBigSmem = 200 * 1024;

__device__ __forceinline__ unsigned smid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned long long gtime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

struct Rec {
  unsigned sm, pad;
  unsigned long long t0, t1;
};

// Copies of kernels/matmul.cu's kernels that also record where and when each block ran
// (used only in `place`, never profiled).
__global__ void rec_matmul_naive(const float* A, const float* B, float* C, int n, Rec* rec) {
  unsigned long long t0 = gtime();
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
#pragma unroll 1
  for (int k = 0; k < n; ++k) sum += A[row * n + k] * B[k * n + col];
  C[row * n + col] = sum;
  if (threadIdx.x == 0 && threadIdx.y == 0)
    rec[blockIdx.y * gridDim.x + blockIdx.x] = Rec{smid(), 0, t0, gtime()};
}

template <int TILE>
__global__ void rec_matmul_tiled(const float* A, const float* B, float* C, int n, Rec* rec) {
  unsigned long long t0 = gtime();
  __shared__ float tileA[TILE][TILE];
  __shared__ float tileB[TILE][TILE];
  int lx = threadIdx.x, ly = threadIdx.y;
  int row = blockIdx.y * TILE + ly, col = blockIdx.x * TILE + lx;
  float sum = 0.0f;
#pragma unroll 1
  for (int t = 0; t < n / TILE; ++t) {
    tileA[ly][lx] = A[row * n + t * TILE + lx];
    tileB[ly][lx] = B[(t * TILE + ly) * n + col];
    __syncthreads();
#pragma unroll 1
    for (int k = 0; k < TILE; ++k) sum += tileA[ly][k] * tileB[k][lx];
    __syncthreads();
  }
  C[row * n + col] = sum;
  if (lx == 0 && ly == 0) rec[blockIdx.y * gridDim.x + blockIdx.x] = Rec{smid(), 0, t0, gtime()};
}

// Thread-block clusters share a GPC: each block writes its SM and stays a while, so that all
// clusters of the launch are resident together.
__global__ void gpc_where(unsigned* out) {
  unsigned long long t0 = gtime();
  if (threadIdx.x == 0) out[blockIdx.x] = smid();
  while (gtime() - t0 < 20000) {
  }
}

// Region table by value (constant bank), so that looking it up adds no global load.
struct RegionTable {
  int region[kMaxSm];
};

// mode 0: the block's 256 threads read its SM's region once, coalesced (512 sectors, no reuse
// inside the block). mode 1: each of the 8 warps reads the whole region (8 x 512 lookups).
__global__ void probe_read(const float* data, RegionTable tab, int mode, long long delay_ns,
                           float* out, Rec* rec) {
  unsigned long long t0 = gtime();
  unsigned s = smid();
  int r = tab.region[s % kMaxSm];
  if (r >= 0) {
    if (delay_ns > 0)
      while (gtime() - t0 < static_cast<unsigned long long>(delay_ns) * s) {
      }
    const float* p = data + static_cast<size_t>(r) * kRegionFloats;
    float acc = 0.0f;
    if (mode == 0) {
      for (int i = threadIdx.x; i < kRegionFloats; i += blockDim.x) acc += p[i];
    } else {
      for (int i = threadIdx.x & 31; i < kRegionFloats; i += 32) acc += p[i];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
  }
  if (threadIdx.x == 0) rec[blockIdx.x] = Rec{s, static_cast<unsigned>(r), t0, gtime()};
}

int sm_count() {
  int dev = 0, n = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev));
  return n;
}

// ------------------------------------------------------------------------------------------
// place
// ------------------------------------------------------------------------------------------

struct UnionFind {
  std::vector<int> p;
  explicit UnionFind(int n) : p(n) { std::iota(p.begin(), p.end(), 0); }
  int find(int x) { return p[x] == x ? x : p[x] = find(p[x]); }
  void unite(int a, int b) { p[find(a)] = find(b); }
};

std::vector<int> gpc_map(FILE* f) {
  UnionFind uf(kMaxSm);
  std::vector<bool> seen(kMaxSm, false);
  CK(cudaFuncSetAttribute(gpc_where, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cudaFuncSetAttribute(gpc_where, cudaFuncAttributeMaxDynamicSharedMemorySize, kBigSmem));
  unsigned* d = nullptr;
  CK(cudaMalloc(&d, 4096 * sizeof(unsigned)));
  for (int cs : {16, 8, 4, 2}) {
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cs;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    cfg.blockDim = dim3(32);
    cfg.dynamicSmemBytes = kBigSmem;  // one block per SM: a cluster spans cs SMs
    int maxc = 0;
    cfg.gridDim = dim3(cs);
    if (cudaOccupancyMaxActiveClusters(&maxc, gpc_where, &cfg) != cudaSuccess || maxc <= 0) {
      cudaGetLastError();
      std::fprintf(f, "# cluster size %d: not launchable\n", cs);
      continue;
    }
    std::fprintf(f, "# cluster size %d: max active clusters %d\n", cs, maxc);
    for (int k = maxc; k >= 1 && k > maxc - 6; --k) {  // several grid sizes, several placements
      cfg.gridDim = dim3(k * cs);
      if (cudaLaunchKernelEx(&cfg, gpc_where, d) != cudaSuccess) {
        std::fprintf(f, "# launch failed: %s\n", cudaGetErrorString(cudaGetLastError()));
        continue;
      }
      CK(cudaDeviceSynchronize());
      std::vector<unsigned> h(k * cs);
      CK(cudaMemcpy(h.data(), d, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
      for (int c = 0; c < k; ++c)
        for (int i = 0; i < cs; ++i) {
          seen[h[c * cs + i] % kMaxSm] = true;
          uf.unite(h[c * cs] % kMaxSm, h[c * cs + i] % kMaxSm);
        }
    }
  }
  CK(cudaFree(d));
  std::map<int, int> root_id;
  std::vector<int> gpc(kMaxSm, -1);
  for (int s = 0; s < kMaxSm; ++s) {
    if (!seen[s]) continue;
    int r = uf.find(s);
    auto it = root_id.try_emplace(r, static_cast<int>(root_id.size())).first;
    gpc[s] = it->second;
  }
  for (int s = 0; s < kMaxSm; ++s)
    if (seen[s]) std::fprintf(f, "gpc %d %d\n", s, gpc[s]);
  return gpc;
}

template <class K>
void place_one(FILE* f, const char* name, K kernel, dim3 grid, dim3 block, const float* A,
               const float* B, float* C, Rec* drec) {
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kBigSmem));
  const int nb = grid.x * grid.y;
  for (int occ = 0; occ < 2; ++occ)
    for (int rep = 0; rep < 3; ++rep) {
      kernel<<<grid, block, occ ? kBigSmem : 0>>>(A, B, C, kN, drec);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      std::vector<Rec> h(nb);
      CK(cudaMemcpy(h.data(), drec, nb * sizeof(Rec), cudaMemcpyDeviceToHost));
      unsigned long long t0 = ~0ull;
      for (const Rec& r : h) t0 = std::min(t0, r.t0);
      for (int b = 0; b < nb; ++b)
        std::fprintf(f, "blk %s %s %d %d %u %llu %llu\n", name, occ ? "one" : "def", rep, b,
                     h[b].sm, h[b].t0 - t0, h[b].t1 - t0);
    }
}

void fill(std::vector<float>& a, int mul, int mod) {
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>((i * mul + 3) % mod) - mod / 2;
}

struct Mats {
  float *A, *B, *C;
  Mats() {
    std::vector<float> a(kN * kN), b(kN * kN);
    fill(a, 7, 13);
    fill(b, 5, 11);
    CK(cudaMalloc(&A, a.size() * 4));
    CK(cudaMalloc(&B, b.size() * 4));
    CK(cudaMalloc(&C, b.size() * 4));
    CK(cudaMemcpy(A, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
  }
};

int do_place(const char* path) {
  FILE* f = std::fopen(path, "w");
  if (!f) return 1;
  std::fprintf(f, "# SMs %d\n", sm_count());
  gpc_map(f);
  Mats m;
  Rec* drec = nullptr;
  CK(cudaMalloc(&drec, 4096 * sizeof(Rec)));
  place_one(f, "matmul_naive", rec_matmul_naive, dim3(kN / 16, kN / 16), dim3(16, 16), m.A, m.B, m.C, drec);
  place_one(f, "matmul_tiled8", rec_matmul_tiled<8>, dim3(kN / 8, kN / 8), dim3(8, 8), m.A, m.B, m.C, drec);
  place_one(f, "matmul_tiled16", rec_matmul_tiled<16>, dim3(kN / 16, kN / 16), dim3(16, 16), m.A, m.B, m.C, drec);
  place_one(f, "matmul_tiled32", rec_matmul_tiled<32>, dim3(kN / 32, kN / 32), dim3(32, 32), m.A, m.B, m.C, drec);
  std::fclose(f);
  return 0;
}

// ------------------------------------------------------------------------------------------
// count
// ------------------------------------------------------------------------------------------

FILE* g_labels = nullptr;
int g_id = 0;
void label(const std::string& s) {
  std::fprintf(g_labels, "%d %s\n", g_id++, s.c_str());
  std::fflush(g_labels);
}

template <class K>
void count_matmul(const char* name, K kernel, int T, const Mats& m) {
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kBigSmem));
  const int g = kN / T;
  struct V {
    const char* what;
    dim3 grid;
    size_t smem;
  } vs[] = {{"full", dim3(g, g), 0},         {"full", dim3(g, g), 0},
            {"full", dim3(g, g), 0},         {"full_one_per_sm", dim3(g, g), kBigSmem},
            {"single_block", dim3(1, 1), 0}, {"block_row", dim3(g, 1), 0},
            {"block_col", dim3(1, g), 0}};
  for (const V& v : vs) {
    label(std::string(name) + " " + v.what + " grid=" + std::to_string(v.grid.x) + "x" +
          std::to_string(v.grid.y) + " smem=" + std::to_string(v.smem));
    kernel<<<v.grid, dim3(T, T), v.smem>>>(m.A, m.B, m.C, kN);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
  }
}

int do_count(const char* place_path, const char* labels_path) {
  g_labels = std::fopen(labels_path, "w");
  if (!g_labels) return 1;
  std::vector<int> gpc(kMaxSm, -1);
  if (FILE* f = std::fopen(place_path, "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, f)) {
      int s, c;
      if (std::sscanf(line, "gpc %d %d", &s, &c) == 2 && s >= 0 && s < kMaxSm) gpc[s] = c;
    }
    std::fclose(f);
  }
  const int nsm = sm_count();
  Mats m;
  count_matmul("matmul_naive", matmul_naive, 16, m);
  count_matmul("matmul_tiled8", matmul_tiled<8>, 8, m);
  count_matmul("matmul_tiled16", matmul_tiled<16>, 16, m);
  count_matmul("matmul_tiled32", matmul_tiled<32>, 32, m);

  // probe_read: 132 blocks, one per SM.
  float *data = nullptr, *out = nullptr;
  Rec* drec = nullptr;
  CK(cudaMalloc(&data, size_t(kMaxSm) * kRegionFloats * 4));
  CK(cudaMemset(data, 0, size_t(kMaxSm) * kRegionFloats * 4));
  CK(cudaMalloc(&out, size_t(kMaxSm) * 256 * 4));
  CK(cudaMalloc(&drec, kMaxSm * sizeof(Rec)));
  CK(cudaFuncSetAttribute(probe_read, cudaFuncAttributeMaxDynamicSharedMemorySize, kBigSmem));
  // Cross-GPC pairs: the i-th SM of GPC 2j with the i-th SM of GPC 2j+1.
  std::map<int, std::vector<int>> by_gpc;
  for (int s = 0; s < kMaxSm; ++s)
    if (gpc[s] >= 0) by_gpc[gpc[s]].push_back(s);
  std::vector<std::vector<int>> groups;
  for (auto& [c, v] : by_gpc) groups.push_back(v);
  auto run = [&](const std::string& what, RegionTable tab, int mode, long long delay, int blocks) {
    label("probe_read " + what);
    probe_read<<<blocks, 256, kBigSmem>>>(data, tab, mode, delay, out, drec);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<Rec> h(blocks);
    CK(cudaMemcpy(h.data(), drec, blocks * sizeof(Rec), cudaMemcpyDeviceToHost));
    std::string sms;
    for (const Rec& r : h) sms += " " + std::to_string(r.sm) + ":" + std::to_string(int(r.pad));
    std::fprintf(g_labels, "#   block sm:region%s\n", sms.c_str());
  };
  RegionTable same{}, distinct{}, tpc{}, gpcs{}, cross{};
  for (int s = 0; s < kMaxSm; ++s) {
    same.region[s] = 0;
    distinct.region[s] = s;
    tpc.region[s] = s / 2;
    gpcs.region[s] = gpc[s] >= 0 ? gpc[s] : 200;
    cross.region[s] = 255;
  }
  int pairs = 0;
  for (size_t j = 0; j + 1 < groups.size(); j += 2)
    for (size_t i = 0; i < std::min(groups[j].size(), groups[j + 1].size()); ++i) {
      cross.region[groups[j][i]] = pairs;
      cross.region[groups[j + 1][i]] = pairs;
      ++pairs;
    }
  for (int s = 0, extra = 0; s < kMaxSm; ++s)  // SMs left over read regions of their own
    if (cross.region[s] == 255) cross.region[s] = 128 + (extra++ % 64);
  run("all_same", same, 0, 0, nsm);
  run("all_distinct", distinct, 0, 0, nsm);
  run("tpc_pairs", tpc, 0, 0, nsm);
  run("gpc_same", gpcs, 0, 0, nsm);
  run("cross_gpc_pairs", cross, 0, 0, nsm);
  run("all_same_staggered_25us", same, 0, 25000, nsm);
  run("gpc_same_staggered_25us", gpcs, 0, 25000, nsm);
  run("tpc_pairs_staggered_25us", tpc, 0, 25000, nsm);
  run("one_block_8warps_same_region", same, 1, 0, 1);
  run("one_block_plain", same, 0, 0, 1);
  std::fclose(g_labels);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "place") return do_place(argv[2]);
  if (argc >= 4 && std::string(argv[1]) == "count") return do_count(argv[2], argv[3]);
  std::fprintf(stderr, "usage: l2_probe place FILE | l2_probe count PLACEFILE LABELS\n");
  return 1;
}
